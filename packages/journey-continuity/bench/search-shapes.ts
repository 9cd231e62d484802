// Every search shape against journeys as large as a caller can make them (issue #34): the 100
// summaries of 64 KiB made of control characters (each 384 KiB once JSON-escaped; the run raises
// JOURNEY_MAX_TEXT_BYTES for it), the densest text a journey can hold at the default JOURNEY_MAX_TEXT_BYTES
// (one one-letter word repeated: 32,768 matches in each 64 KiB summary), and JOURNEY_MAX_SESSIONS short
// sessions. Also a cheap call sent right behind each search: how long a search holds every other caller.
import type { Client } from '@modelcontextprotocol/client';
import { localPrincipal } from '@switchyard/server-kit/runtime';
import { DEFAULT_MAX_SESSIONS, DEFAULT_MAX_TEXT_BYTES } from '../src/config.js';
import type { HistoryQuery, JourneyService } from '../src/journeys/journey-service.js';
import { MAX_SUMMARY_BYTES } from '../src/journeys/limits.js';
import { toMillisRange } from '../src/journeys/time.js';
import { cheapCallBeside, type InterleavedStats, type LargeTextRow } from './large-texts.js';
import { measure } from './stats.js';

const LOCAL = { owner: localPrincipal() };

/** The summary: the largest allowed, every character but two a control character. */
const ESCAPED_SUMMARY = `a${'\u0001'.repeat(MAX_SUMMARY_BYTES - 2)}b`;
/** The densest summary: a one-letter word 32,767 times, then another. */
const DENSE_SUMMARY = `${'a '.repeat(MAX_SUMMARY_BYTES / 2 - 1)}b`;
/** The journey: 100 of the largest summaries and five documents, past the default text bound. */
export const SHAPES_MAX_TEXT_BYTES = 7 * 1024 * 1024;

type Args = Omit<HistoryQuery, 'journeyId' | 'range'>;

const SHAPES: [name: string, args: Args][] = [
  ['no query, limit 100', { limit: 100, includeDocuments: false }],
  ['no query, limit 1', { limit: 1, includeDocuments: false }],
  ['matching all, limit 100', { text: 'a', limit: 100, includeDocuments: false }],
  ['matching all, limit 1', { text: 'a', limit: 1, includeDocuments: false }],
  ['matching none', { text: 'zebra', limit: 100, includeDocuments: false }],
  ['match at the end', { text: 'b', limit: 100, includeDocuments: false }],
  ['with documents', { text: 'a b', limit: 100, includeDocuments: true }],
];

export async function measureSearchShapes(
  client: Client,
  floor: JourneyService,
  iterations: number,
): Promise<{ rows: LargeTextRow[]; interleaved: InterleavedStats }> {
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent as Record<string, unknown>;
  };
  const newJourney = async () => (await call('get_or_create_journey', {})).journey_id as string;
  const fill = async (sessions: number, summary: (i: number) => string, documents = 0) => {
    const journeyId = await newJourney();
    for (let i = 0; i < sessions; i++)
      await call('record_session', { journey_id: journeyId, summary: summary(i) });
    for (let i = 0; i < documents; i++) {
      await call('add_document_to_journey', {
        journey_id: journeyId,
        document_type: 'note',
        title: `a${'\u0001'.repeat(498)}b`,
        content: ESCAPED_SUMMARY,
      });
    }
    return journeyId;
  };
  const journeys = [
    { label: '100 x 64 KiB escaped', journeyId: await fill(100, () => ESCAPED_SUMMARY, 5), shapes: SHAPES },
    {
      label: `densest text at ${DEFAULT_MAX_TEXT_BYTES / 1024 / 1024} MiB`,
      journeyId: await fill(DEFAULT_MAX_TEXT_BYTES / MAX_SUMMARY_BYTES - 1, () => DENSE_SUMMARY),
      shapes: SHAPES.filter(([, args]) => !args.includeDocuments),
    },
    {
      label: `${DEFAULT_MAX_SESSIONS} short sessions`,
      journeyId: await fill(DEFAULT_MAX_SESSIONS, (i) => `check-in ${i}: a walk before breakfast`),
      shapes: SHAPES.filter(([name]) => name.startsWith('matching')),
    },
  ];
  const small = await fill(5, (i) => `check-in ${i}`);

  const warmup = Math.min(5, iterations);
  const rows: LargeTextRow[] = [];
  const heavy: Record<string, unknown>[] = [];
  for (const { label, journeyId, shapes } of journeys) {
    for (const [name, args] of shapes) {
      const toolArgs = {
        journey_id: journeyId,
        query: args.text,
        limit: args.limit,
        include_documents: args.includeDocuments,
      };
      heavy.push(toolArgs);
      rows.push({
        operation: `search ${label}: ${name}`,
        target: 'p95 < 50 ms',
        client: await measure(iterations, () => call('query_journey_history', toolArgs), warmup),
        floor: await measure(
          iterations,
          () => floor.queryHistory({ journeyId, range: toMillisRange(), ...args }, LOCAL),
          warmup,
        ),
      });
    }
  }

  const interleaved = await cheapCallBeside(
    heavy.map((args) => () => call('query_journey_history', args)),
    () => call('query_journey_history', { journey_id: small }),
    Math.max(iterations, heavy.length),
  );
  for (const { journeyId } of journeys) await call('delete_journey', { journey_id: journeyId });
  await call('delete_journey', { journey_id: small });
  return { rows, interleaved };
}
