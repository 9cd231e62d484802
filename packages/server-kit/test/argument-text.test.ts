import { describe, expect, it } from 'vitest';
import { notTextArgument } from '../src/argument-text.js';
import { connectInMemory } from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';

const NOT_TEXT = /must be well-formed Unicode text: it has an unpaired UTF-16 surrogate/;

describe('notTextArgument', () => {
  it('names the path of a string with an unpaired surrogate, at any depth, without echoing it', () => {
    expect(notTextArgument({ text: 'lone \ud800 high' })).toMatchObject({ path: 'text' });
    expect(notTextArgument({ text: 'lone \udc00 low' })).toMatchObject({ path: 'text' });
    expect(notTextArgument({ a: [{ b: 'ok' }, { b: ['fine', 'swapped \udc00\ud800'] }] })).toMatchObject({
      path: 'a[1].b[1]',
      message: expect.stringMatching(/^a\[1\]\.b\[1\] must be well-formed Unicode text/),
    });
    expect(notTextArgument({ text: 'x\ud800' })?.message).not.toContain('\ud800');
  });

  it('checks object keys too, naming the object that holds the key', () => {
    expect(notTextArgument({ meta: { nested: { ['k\ud800']: 1 } } })).toMatchObject({
      path: 'meta.nested',
      message: expect.stringMatching(/^a key in meta\.nested must be well-formed Unicode text/),
    });
    expect(notTextArgument({ ['\udfff']: 'value' })).toMatchObject({
      path: '',
      message: expect.stringMatching(/^an argument name must be well-formed Unicode text/),
    });
  });

  it('refuses a NUL character (PostgreSQL text cannot hold one), in a value or a key, saying what it is', () => {
    expect(notTextArgument({ summary: 'before\u0000after' })).toEqual({
      path: 'summary',
      message:
        'summary must be well-formed Unicode text: it has a NUL character (\\u0000), which no text column can ' +
        'hold; remove it',
    });
    expect(notTextArgument({ metadata: { ['k\u0000']: 1 } })).toMatchObject({
      path: 'metadata',
      message: expect.stringMatching(/^a key in metadata must be .*NUL character/),
    });
    // U+2400 (the visible symbol for NUL) and other control characters are text.
    expect(notTextArgument({ text: 'tab\t \u2400 \u0001' })).toBeUndefined();
  });

  it('accepts paired surrogates (emoji, CJK extension B), numbers, booleans and null', () => {
    expect(
      notTextArgument({ text: '\ud83c\udfcb\ufe0f \ud840\udc00', n: 1, yes: true, none: null, list: [[]] }),
    ).toBeUndefined();
  });
});

describe.each(['modern', 'legacy'] as const)('tool arguments that are not text (%s era)', (era) => {
  it('answer the validation error naming the field, before the schema or the handler', async () => {
    const { client, close } = await connectInMemory([{ domain: echoDomain(), config: undefined }], { era });
    try {
      const answer = await client.callTool({ name: 'echo_text', arguments: { text: 'half \ud83c' } });
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent).toMatchObject({
        error: { kind: 'validation', message: expect.stringMatching(NOT_TEXT) },
      });
      const nul = await client.callTool({ name: 'echo_text', arguments: { text: 'a\u0000b' } });
      expect(nul.structuredContent).toMatchObject({
        error: { kind: 'validation', message: expect.stringContaining('NUL character') },
      });
      const whole = await client.callTool({ name: 'echo_text', arguments: { text: 'whole \ud83c\udfcb' } });
      expect(whole.structuredContent).toMatchObject({ text: 'whole \ud83c\udfcb' });
    } finally {
      await close();
    }
  });
});
