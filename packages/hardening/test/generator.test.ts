import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validArbitrary } from '../src/fuzz/arbitraries.js';
import { assertSupported } from '../src/fuzz/json-schema.js';
import { invalidArbitrary } from '../src/fuzz/mutations.js';
import { trimStrings } from '../src/fuzz/run-fuzz.js';
import { isValidAgainst } from '../src/fuzz/validator.js';
import { findSentinels, SecretScanner, SENTINELS } from '../src/sentinels.js';
import { TOOL_CONTRACTS } from '../src/tools.js';

/**
 * The fuzzer's own checks: what it calls valid is valid against the published JSON Schema (Ajv decides, not
 * the generator), what it calls invalid is invalid, and every keyword of every committed schema is one the
 * generator understands. Without these, a fuzz failure could be the fuzzer's bug.
 */
const SEED = 4242;

describe('the JSON Schema generator', () => {
  it('understands every keyword of every committed input schema', () => {
    expect(TOOL_CONTRACTS).toHaveLength(25);
    for (const tool of TOOL_CONTRACTS) expect(() => assertSupported(tool.inputJsonSchema)).not.toThrow();
  });

  it('refuses a schema keyword it would silently ignore', () => {
    expect(() =>
      assertSupported({ type: 'object', properties: { a: { type: 'string', multipleOf: 2 } as never } }),
    ).toThrow(/multipleOf/);
  });

  for (const tool of TOOL_CONTRACTS) {
    it(`${tool.name}: generated valid inputs pass the schema, mutated ones fail it`, () => {
      const valid = validArbitrary(tool.inputJsonSchema);
      fc.assert(
        fc.property(valid, (value) => isValidAgainst(tool.inputJsonSchema, value)),
        { seed: SEED, numRuns: 150 },
      );
      let invalid = 0;
      let total = 0;
      fc.assert(
        fc.property(invalidArbitrary(tool.inputJsonSchema, valid), (mutation) => {
          total += 1;
          if (!isValidAgainst(tool.inputJsonSchema, mutation.value)) invalid += 1;
        }),
        { seed: SEED, numRuns: 150 },
      );
      // Tools without required fields accept `{}` (and a trailing newline may be trimmed away); nearly every
      // other mutation must break the input.
      expect(invalid / total).toBeGreaterThan(0.65);
    });
  }
});

describe('helpers', () => {
  it('trims strings at any depth', () => {
    expect(trimStrings({ a: ' x ', b: [' y', { c: 'z\n' }], d: 1 })).toEqual({
      a: 'x',
      b: ['y', { c: 'z' }],
      d: 1,
    });
  });

  it('finds a sentinel raw, URL-encoded, base64-encoded or by its core', () => {
    const token = SENTINELS.githubToken;
    expect(findSentinels(`Bearer ${token}`)).toEqual(['githubToken']);
    expect(findSentinels(encodeURIComponent(SENTINELS.tflKey))).toEqual(['tflKey']);
    expect(findSentinels(Buffer.from(SENTINELS.digitransitKey).toString('base64'))).toEqual([
      'digitransitKey',
    ]);
    expect(findSentinels(`key=...${SENTINELS.switchyardToken.slice(-16)}`)).toEqual(['switchyardToken']);
    expect(findSentinels('[REDACTED]')).toEqual([]);
  });

  it('finds a watched access token whole, URL-encoded or by its signature alone', () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLXRoZS1wcm92aWRlcg';
    const scanner = new SecretScanner();
    scanner.watchAccessToken('alice access token', token);
    scanner.scan('log', `authorization: Bearer ${token}`);
    scanner.scan('payload', { next: encodeURIComponent(token) });
    scanner.scan('error', 'bad signature c2lnbmF0dXJlLW9mLXRoZS1wcm92aWRlcg');
    scanner.scan('clean', 'eyJhbGciOiJSUzI1NiJ9 is only a header');
    expect(scanner.found()).toEqual([
      { where: 'log', secrets: ['alice access token'] },
      { where: 'payload', secrets: ['alice access token'] },
      { where: 'error', secrets: ['alice access token'] },
    ]);
  });
});
