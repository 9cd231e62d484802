import { describe, expect, it } from 'vitest';
import { tooDeepArgument } from '../src/argument-depth.js';
import { connectInMemory } from '../src/testing.js';
import { createEchoModule } from './fixtures/echo-module.js';

/** `levels` nested arrays around 1: `nested(2)` is `[[1]]`. */
function nested(levels: number, wrap: (inner: unknown) => unknown = (inner) => [inner]): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = wrap(value);
  return value;
}

describe('tooDeepArgument', () => {
  it('counts the arguments object as level 1 and names the first field past the limit', () => {
    // { a: [[1]] }: the arguments object, then two arrays: 3 levels.
    expect(tooDeepArgument({ a: nested(2) }, 3)).toBeUndefined();
    expect(tooDeepArgument({ a: nested(3) }, 3)).toBe('a');
    expect(tooDeepArgument({ ok: nested(1), deep: nested(5, (inner) => ({ x: inner })) }, 4)).toBe('deep');
    expect(tooDeepArgument({ text: 'plain', n: 1, none: null }, 1)).toBeUndefined();
  });

  it('walks a million levels without a RangeError, and wide values without missing a deep branch', () => {
    expect(tooDeepArgument({ messages: nested(1_000_000) }, 64)).toBe('messages');
    const wide = Array.from({ length: 10_000 }, (_, index) => (index === 9_999 ? nested(70) : { x: 1 }));
    expect(tooDeepArgument({ rows: wide }, 64)).toBe('rows');
    expect(tooDeepArgument({ rows: wide.slice(0, -1) }, 64)).toBeUndefined();
  });
});

describe('registerContractTool and deep arguments', () => {
  it("answers the contract's validation error naming the field and the limit, before the schema runs", async () => {
    const { client, close } = await connectInMemory([createEchoModule()], { toolPrefix: false });
    try {
      // The echo schema would reject the field anyway; the depth error comes first and says why.
      const deep = await client.callTool({ name: 'echo_text', arguments: { text: nested(100_000) } });
      expect(deep.isError).toBe(true);
      expect(deep.structuredContent).toMatchObject({
        error: { kind: 'validation', message: expect.stringMatching(/^text nests .* more than 64 levels/) },
      });
      const fine = await client.callTool({ name: 'echo_text', arguments: { text: 'shallow' } });
      expect(fine.structuredContent).toMatchObject({ text: 'shallow' });
    } finally {
      await close();
    }
  });

  it('takes its limit from maxArgumentDepth', async () => {
    const { client, close } = await connectInMemory([createEchoModule()], {
      toolPrefix: false,
      maxArgumentDepth: 3,
    });
    try {
      const answer = await client.callTool({ name: 'echo_text', arguments: { text: nested(3) } });
      expect(answer.structuredContent).toMatchObject({
        error: { kind: 'validation', message: expect.stringContaining('more than 3 levels') },
      });
      const shallower = await client.callTool({ name: 'echo_text', arguments: { text: nested(2) } });
      expect(shallower.structuredContent).toMatchObject({
        error: { kind: 'validation', message: expect.not.stringContaining('levels') },
      });
    } finally {
      await close();
    }
  });
});
