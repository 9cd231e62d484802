import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDomain, runServer, specsFor, type DomainLifecycle, type RunningServer } from '../src/index.js';
import { AnswerAllowance } from '../src/answer-budget.js';
import { partEnd, textAnswerBytes, textFitting, toolAnswerBytes } from '../src/runtime/index.js';
import { connectInMemory, rawHttpRequest, type InMemoryConnection } from '../src/testing.js';
import { memoryLogger, MCP_POST_HEADERS, tempDir } from './helpers.js';

/** Text that JSON escapes the most: every control character takes six bytes, and seven in the mirror. */
const WORST = '\u0001';
const LIMIT = 64 * 1024;

interface RowsState extends DomainLifecycle {
  /** Handlers running now, and the most that ever ran at once. */
  running: number;
  mostAtOnce: number;
}

const { tool, resource } = specsFor<RowsState, undefined>();

const RowsInput = z.strictObject({
  count: z.number().int().min(1).max(1000).describe('How many rows.'),
  chars: z.number().int().min(1).max(100_000).describe('Characters of each row.'),
  from: z.number().int().min(0).default(0).describe('The first row (a next_from of an earlier answer).'),
});
const RowsOutput = z.strictObject({
  rows: z.array(z.strictObject({ index: z.number().int(), text: z.string() })).describe('The rows.'),
  next_from: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Where the rest starts; null when none is left.'),
});
const errorPayload = (error: { kind: string; message: string }) => ({
  error: { code: error.kind, kind: error.kind, message: error.message },
});

async function busy<T>(state: RowsState, work: () => T): Promise<T> {
  state.running++;
  state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
  try {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return work();
  } finally {
    state.running--;
  }
}

const rowsDomain = defineDomain({
  name: 'rows',
  version: '0.0.0',
  title: 'Rows',
  instructions: 'A test domain whose answers are as large as asked.',
  toolPrefix: 'rows',
  config: () => undefined,
  open: (): RowsState => ({ running: 0, mostAtOnce: 0, async close() {} }),
  tools: [
    tool({
      name: 'list_rows',
      title: 'List rows',
      description: 'Rows of control characters, cut to the answer limit with next_from.',
      input: RowsInput,
      output: RowsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
      errorPayload,
      paging: {
        lists: ['rows'],
        rest: (cut, input) => ({ next_from: input.from + (cut.kept.rows ?? 0) }),
      },
      handler: (input, call) =>
        busy(call.state, () => ({
          rows: Array.from({ length: input.count - input.from }, (_, i) => ({
            index: input.from + i,
            text: WORST.repeat(input.chars),
          })),
          next_from: null,
        })),
    }),
    tool({
      name: 'one_blob',
      title: 'One blob',
      description: 'One text as large as asked, with no way to cut it.',
      input: z.strictObject({ chars: z.number().int().min(1).max(1_000_000).describe('Characters.') }),
      output: z.strictObject({ text: z.string().describe('The text.'), budget: z.number().int() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      errorPayload,
      handler: ({ chars }, call) => ({ text: WORST.repeat(chars), budget: call.answerBytes }),
    }),
  ],
  resources: [
    resource({
      name: 'blob',
      uriTemplate: 'blob://{chars}',
      title: 'Blob',
      description: 'A text resource of the given length, not cut.',
      read: (uri, variables) =>
        Promise.resolve([{ uri, mimeType: 'text/plain', text: WORST.repeat(Number(variables.chars)) }]),
      errorPayload,
    }),
  ],
});

/** What a tool result takes on the wire: the structured content and the text mirror, serialized. */
function wireBytes(result: { structuredContent?: unknown; content?: unknown }): number {
  return (
    Buffer.byteLength(JSON.stringify(result.structuredContent)) +
    Buffer.byteLength(JSON.stringify((result.content as { text: string }[])[0]?.text))
  );
}

describe('what an answer costs on the wire', () => {
  const samples = [
    '',
    'plain ascii',
    'quotes " and \\ backslashes',
    `${WORST}\n\t\r\b\f${String.fromCharCode(0x1f)}`,
    'é ü ß 東京 😀 \u2028',
    'lone \ud800 surrogate \udc00 and a pair 😀',
  ];

  it('counts a tool answer exactly as JSON writes its payload and text mirror', () => {
    for (const text of samples) {
      const json = JSON.stringify({ text });
      const mirror = JSON.stringify(json);
      expect(toolAnswerBytes(json)).toBe(Buffer.byteLength(json) + Buffer.byteLength(mirror));
    }
  });

  it('spends a tool answer at its exact size once the allowance is read again, and every answer spent', () => {
    const allowance = new AnswerAllowance(LIMIT);
    const json = JSON.stringify({ text: samples.join('') });
    allowance.spendToolAnswer(json, 40);
    expect(allowance.shared).toBe(true);
    expect(allowance.remaining).toBe(LIMIT - toolAnswerBytes(json) - 40);
    allowance.spendToolAnswer(json, 0);
    allowance.spend(7);
    allowance.spendToolAnswer(json, 3);
    expect(allowance.remaining).toBe(LIMIT - 3 * toolAnswerBytes(json) - 40 - 7 - 3);
    allowance.spendToolAnswer(JSON.stringify({ text: 'x'.repeat(LIMIT) }), 0);
    expect(allowance.remaining).toBe(0);
  });

  it('builds one answer at a time: the first turn at once, each next one after the last ended, failed or not', async () => {
    const allowance = new AnswerAllowance(LIMIT);
    const started: string[] = [];
    let failFirst = (): void => undefined;
    const first = allowance.turn(() => {
      started.push('first');
      return new Promise<void>((_, reject) => {
        failFirst = () => reject(new Error('first failed'));
      });
    });
    const second = allowance.turn(async () => void started.push('second'));
    const third = allowance.turn(async () => void started.push('third'));
    expect(started).toEqual(['first']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['first']);
    failFirst();
    await expect(first).rejects.toThrow('first failed');
    await Promise.all([second, third]);
    expect(started).toEqual(['first', 'second', 'third']);
  });

  it('counts a text in either form exactly, and fits starts of it without splitting a surrogate pair', () => {
    for (const text of samples) {
      const once = Buffer.byteLength(JSON.stringify(text)) - 2;
      expect(textAnswerBytes(text, 'resource')).toBe(once);
      const mirrored = Buffer.byteLength(JSON.stringify(JSON.stringify(text))) - 6; // less `"\"` and `\""`
      expect(textAnswerBytes(text, 'tool')).toBe(once + mirrored);
      for (let limit = 0; limit < 80; limit += 7) {
        const fit = textFitting(text, limit, 'tool');
        const start = text.slice(0, fit.length);
        expect(fit.bytes).toBeLessThanOrEqual(limit);
        expect(textAnswerBytes(start, 'tool')).toBe(fit.bytes);
        expect(start.endsWith('\ud83d')).toBe(false); // the high half of 😀
        if (fit.length < text.length) expect(fit.bytes + 8).toBeGreaterThan(limit - 13);
      }
    }
  });

  it('ends a part after a whole line when one ends in its second half', () => {
    expect(partEnd('aaaa\nbbbb\ncc', 11)).toBe(10);
    expect(partEnd('a\nbbbbbbbbbb', 10)).toBe(10);
    expect(partEnd('short', 10)).toBe(5);
  });
});

let connection: InMemoryConnection | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
  await server?.close();
  server = undefined;
});

describe.each(['modern', 'legacy'] as const)('the answer limit (%s era)', (era) => {
  const connect = async () => {
    connection = await connectInMemory([{ domain: rowsDomain, config: undefined }], {
      era,
      maxAnswerBytes: LIMIT,
      logger: memoryLogger().logger,
    });
    return connection.client;
  };

  it('leaves an answer under the limit whole', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'list_rows', arguments: { count: 3, chars: 10 } });
    expect(result.structuredContent).toMatchObject({ next_from: null });
    expect((result.structuredContent as { rows: unknown[] }).rows).toHaveLength(3);
  });

  it('cuts a list at an item boundary under the limit and says where the rest starts', async () => {
    const client = await connect();
    const first = await client.callTool({ name: 'list_rows', arguments: { count: 100, chars: 1000 } });
    expect(first.isError).toBeFalsy();
    const page = first.structuredContent as { rows: { index: number }[]; next_from: number };
    expect(wireBytes(first)).toBeLessThanOrEqual(LIMIT);
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.next_from).toBe(page.rows.length);
    // Most of the limit is used: the cut drops what it must, not more.
    expect(wireBytes(first)).toBeGreaterThan(LIMIT - 2 * 13 * 1000);

    const indexes: number[] = [];
    let from: number | null = 0;
    while (from !== null) {
      const next = await client.callTool({ name: 'list_rows', arguments: { count: 100, chars: 1000, from } });
      const rows = (next.structuredContent as { rows: { index: number }[] }).rows;
      indexes.push(...rows.map((row) => row.index));
      from = (next.structuredContent as { next_from: number | null }).next_from;
    }
    expect(indexes).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('refuses an answer it cannot cut as an internal error, and tells the handler its budget', async () => {
    const client = await connect();
    const small = await client.callTool({ name: 'one_blob', arguments: { chars: 10 } });
    expect(small.structuredContent).toMatchObject({ budget: LIMIT });
    const big = await client.callTool({ name: 'one_blob', arguments: { chars: 10_000 } });
    expect(big.isError).toBe(true);
    expect(big.structuredContent).toMatchObject({ error: { kind: 'internal' } });
    expect(wireBytes(big)).toBeLessThan(4096);
  });

  it('refuses a resource read over the limit with an error, and reads one under it', async () => {
    const client = await connect();
    const read = await client.readResource({ uri: 'blob://100' });
    expect(read.contents[0]).toMatchObject({ text: WORST.repeat(100) });
    await expect(client.readResource({ uri: 'blob://20000' })).rejects.toThrow(/answer limit/);
  });
});

describe('a 2025-era batch over HTTP', () => {
  it('answers its members one at a time, all of them within one answer limit', async () => {
    server = await runServer([{ domain: rowsDomain, config: undefined }], {
      name: 'rows',
      version: '0.0.0',
      transport: 'http',
      http: { port: 0 },
      dataDir: tempDir(),
      maxAnswerBytes: LIMIT,
      handleSignals: false,
      logger: memoryLogger().logger,
    });
    const call = (id: number, name: string, args: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    const batch = [
      call(1, 'list_rows', { count: 40, chars: 1000 }),
      call(2, 'list_rows', { count: 40, chars: 1000 }),
      call(3, 'one_blob', { chars: 2000 }),
    ];
    const response = await rawHttpRequest(server.url ?? '', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(200);
    expect(Buffer.byteLength(response.body)).toBeLessThanOrEqual(LIMIT + 4096);
    const answers = parseAnswers(response.body);
    const byId = new Map(answers.map((answer) => [answer.id, answer.result]));
    const first = byId.get(1);
    expect(first?.isError).toBeFalsy();
    expect((first?.structuredContent as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    // What the first left of the limit is all the others share: the second is cut to it or refused, and
    // the third (which alone would fit) is refused with what to do.
    const refusal = /send this request on its own/;
    const second = byId.get(2);
    if (second?.isError === true) expect(JSON.stringify(second.structuredContent)).toMatch(refusal);
    else expect((second?.structuredContent as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    expect(byId.get(3)?.isError).toBe(true);
    expect(JSON.stringify(byId.get(3)?.structuredContent)).toMatch(refusal);
    expect((server.domains.get('rows') as RowsState).mostAtOnce).toBe(1);
  });
});

interface Answer {
  id: number;
  result?: { isError?: boolean; structuredContent?: unknown };
}

/** The JSON-RPC answers of a batch, sent as JSON or as server-sent events. */
function parseAnswers(body: string): Answer[] {
  const trimmed = body.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as Answer[];
  return trimmed
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .flatMap((line) => {
      const parsed = JSON.parse(line.slice('data: '.length)) as Answer | Answer[];
      return Array.isArray(parsed) ? parsed : [parsed];
    });
}
