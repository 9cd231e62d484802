// parseJsonBytes must give exactly what JSON.parse gives for the body decoded as UTF-8, for every body: the
// Latin-1 fast path is an optimisation, never a different answer.
import { describe, expect, it } from 'vitest';
import { isBlankText, parseJsonBytes } from '../src/json-bytes.js';

const utf8 = new TextEncoder();
const plain = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(bytes));
const bytesOf = (text: string): Uint8Array => utf8.encode(text);
const same = (bytes: Uint8Array): void => {
  const expected = plain(bytes);
  const actual = parseJsonBytes(bytes);
  expect(actual).toStrictEqual(expected);
  // Key order too (toStrictEqual ignores it).
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
};

describe('parseJsonBytes', () => {
  const cases: Array<[string, Uint8Array]> = [
    ['ASCII only', bytesOf('{"a":[1,2.5,-3e2,true,false,null],"b":"x y"}')],
    ['non-ASCII in values', bytesOf('{"stop":"Bank – Monument","town":"Töölö","emoji":"🚇 ok"}')],
    ['non-ASCII keys, in their order', bytesOf('{"z":1,"Äbc":2,"a":{"é":"è","b":[{"ñ":"ü"}]}}')],
    ['a __proto__ key with a non-ASCII value', bytesOf('{"__proto__":"Ä","x":{"__proto__":{"ö":1}}}')],
    ['a __proto__ key beside a non-ASCII key', bytesOf('{"__proto__":{"p":1},"ä":2}')],
    ['a \\u escape next to raw non-ASCII', bytesOf('{"a":"caf\\u00e9","b":"café"}')],
    ['an escaped backslash before u', bytesOf('{"a":"\\\\u","b":"ü"}')],
    ['a byte order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf('{"ä":"ö"}')])],
    [
      'invalid UTF-8 inside a string',
      new Uint8Array([...bytesOf('{"a":"x'), 0xc3, 0x28, 0xff, ...bytesOf('y"}')]),
    ],
    [
      'a truncated sequence at a string end',
      new Uint8Array([...bytesOf('["'), 0xe2, 0x80, ...bytesOf('"]')]),
    ],
    ['a top-level string', bytesOf('"Helsinki–Espoo"')],
    ['arrays of strings', bytesOf('[["å","b"],["ß"],[]]')],
  ];
  for (const [name, bytes] of cases) it(`equals JSON.parse of the decoded text: ${name}`, () => same(bytes));

  it('equals JSON.parse of the decoded text for 500 random documents', () => {
    let seed = 42;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const codePoints = [0x41, 0x7a, 0x20, 0xe9, 0xf6, 0x2013, 0x4e2d, 0x1f687, 0x22, 0x5c, 0x0a, 0x80, 0xff];
    const text = (): string =>
      Array.from({ length: Math.floor(next() * 6) }, () =>
        String.fromCodePoint(codePoints[Math.floor(next() * codePoints.length)]!),
      ).join('');
    const value = (depth: number): unknown => {
      const kind = Math.floor(next() * (depth > 3 ? 3 : 5));
      if (kind === 0) return text();
      if (kind === 1) return Math.round(next() * 1000) / 10;
      if (kind === 2) return next() < 0.5 ? null : true;
      if (kind === 3) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 4) }, () => [text(), value(depth + 1)]),
      );
    };
    for (let i = 0; i < 500; i += 1) same(bytesOf(JSON.stringify(value(0))));
  });

  it('throws the SyntaxError JSON.parse throws for a body that is not JSON', () => {
    for (const text of ['{"a":', 'ü', '{"a":1}x', ''])
      expect(() => parseJsonBytes(bytesOf(text))).toThrow(SyntaxError);
  });
});

describe('isBlankText', () => {
  it('is true for nothing, JSON white space or a lone byte order mark, false for anything else', () => {
    expect(isBlankText(new Uint8Array(0))).toBe(true);
    expect(isBlankText(bytesOf(' \n\t\r '))).toBe(true);
    expect(isBlankText(new Uint8Array([0xef, 0xbb, 0xbf, 0x20]))).toBe(true);
    expect(isBlankText(bytesOf(' {}'))).toBe(false);
    expect(isBlankText(bytesOf('ä'))).toBe(false);
  });
});
