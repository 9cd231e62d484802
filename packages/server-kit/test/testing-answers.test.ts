import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { contractErrorOf, errorOf, type ToolAnswer } from '../src/testing.js';

const hsl = { error: { code: 'not-found', message: 'No such place', correlationId: 'c' } };
const launch = { ok: false, error: { code: 'RUN_NOT_FOUND', message: 'No run', retryable: false } };

const answer = (structured: Record<string, unknown>, isError = true): ToolAnswer => ({
  isError,
  structured,
  text: JSON.stringify(structured),
  raw: { content: [] } as CallToolResult,
});

describe('errorOf', () => {
  it("returns the error object of the contracts' error payloads, or of an answer carrying one", () => {
    expect(errorOf(hsl)).toBe(hsl.error);
    expect(errorOf(answer(hsl), 'not-found')).toBe(hsl.error);
    expect(errorOf(launch, 'RUN_NOT_FOUND')).toBe(launch.error);
  });

  it('throws for another code, a success payload or a payload without an error object', () => {
    expect(() => errorOf(hsl, 'validation-error')).toThrow('expected error validation-error, got not-found');
    expect(() => errorOf({ ok: true, error: launch.error })).toThrow('expected error');
    expect(() => errorOf(answer({ success: true, journeys: [] }), 'X')).toThrow('expected error X');
  });
});

describe('contractErrorOf', () => {
  const schema = { parse: (payload: unknown) => payload as typeof hsl };

  it("returns the error as the contract's schema parses it, and throws for an answer that is no error", () => {
    expect(contractErrorOf(answer(hsl), schema)).toBe(hsl.error);
    expect(() => contractErrorOf(answer(hsl, false), schema)).toThrow('expected an error');
  });
});
