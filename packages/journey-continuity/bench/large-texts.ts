// Searches that match very large texts (issue #11, row 3): one document of 1 MiB and 100 session summaries
// of 64 KiB (the largest allowed), written from the corpus's coaching sentences, so that the searched word
// occurs thousands of times in each. Also measures a cheap call issued while each heavy search is in flight:
// the server answers calls one at a time, so its latency shows how long a heavy search holds everything else.
import type { Client } from '@modelcontextprotocol/client';
import { localPrincipal } from '@switchyard/server-kit/runtime';
import { MAX_SUMMARY_BYTES } from '../src/journeys/limits.js';
import type { JourneyService } from '../src/journeys/journey-service.js';
import { toMillisRange } from '../src/journeys/time.js';
import { seededRandom, summaryGenerator } from './corpus.js';
import { measure, percentiles, type Stats } from './stats.js';

const LOCAL = { owner: localPrincipal() };

export interface LargeTextOptions {
  documentBytes: number;
  summaries: number;
  iterations: number;
}

export interface LargeTextRow {
  operation: string;
  target: string;
  client: Stats;
  floor: Stats;
}

export interface InterleavedStats {
  operation: string;
  alone: Stats;
  besideHeavy: Stats;
}

/** Coaching sentences up to `bytes` UTF-8 bytes (the generator writes ASCII only). */
export function coachingText(bytes: number, seed: number): string {
  const summary = summaryGenerator(seededRandom(seed));
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const sentence = `${summary()} `;
    parts.push(sentence);
    length += sentence.length;
  }
  return parts.join('').slice(0, bytes);
}

const NEEDLE = ' and then a zebra crossing';

/** Words of every generated summary: most words of each large text match (tens of thousands of matches). */
export const LARGE_TEXT_QUERY = 'discussed the focus with a on about felt agreed to';

type Call = (name: string, args: Record<string, unknown>) => Promise<unknown>;

/** Creates the journeys (through the tools), measures, and deletes them again. */
export async function measureLargeTexts(
  client: Client,
  floor: JourneyService,
  options: LargeTextOptions,
): Promise<{ rows: LargeTextRow[]; interleaved: InterleavedStats }> {
  const call: Call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent;
  };
  const newJourney = async () =>
    ((await call('get_or_create_journey', {})) as { journey_id: string }).journey_id;
  const withDocument = await newJourney();
  await call('add_document_to_journey', {
    journey_id: withDocument,
    document_type: 'note',
    title: 'Coaching notes, all of them',
    content: coachingText(options.documentBytes, 1),
  });
  // The same size with one match, at its very end: the search reads the whole text to find it.
  const withNeedle = await newJourney();
  await call('add_document_to_journey', {
    journey_id: withNeedle,
    document_type: 'note',
    title: 'Coaching notes',
    content: `${coachingText(options.documentBytes - NEEDLE.length, 2)}${NEEDLE}`,
  });
  const withSummaries = await newJourney();
  for (let i = 0; i < options.summaries; i++) {
    await call('record_session', {
      journey_id: withSummaries,
      summary: coachingText(MAX_SUMMARY_BYTES, 100 + i),
    });
  }
  const small = await newJourney();
  for (let i = 0; i < 5; i++) await call('record_session', { journey_id: small, summary: `check-in ${i}` });

  const everything = toMillisRange();
  const heavy = [
    {
      operation: `query_journey_history, ${Math.round(options.documentBytes / 1024)} KiB document`,
      args: { journey_id: withDocument, query: LARGE_TEXT_QUERY, include_documents: true },
      floor: () =>
        floor.queryHistory(
          {
            journeyId: withDocument,
            text: LARGE_TEXT_QUERY,
            range: everything,
            limit: 10,
            includeDocuments: true,
          },
          LOCAL,
        ),
    },
    {
      operation: `query_journey_history, ${Math.round(options.documentBytes / 1024)} KiB, match at end`,
      args: { journey_id: withNeedle, query: 'zebra', include_documents: true },
      floor: () =>
        floor.queryHistory(
          {
            journeyId: withNeedle,
            text: 'zebra',
            range: everything,
            limit: 10,
            includeDocuments: true,
          },
          LOCAL,
        ),
    },
    {
      operation: `query_journey_history, ${options.summaries} x 64 KiB summaries`,
      args: { journey_id: withSummaries, query: LARGE_TEXT_QUERY },
      floor: () =>
        floor.queryHistory(
          {
            journeyId: withSummaries,
            text: LARGE_TEXT_QUERY,
            range: everything,
            limit: 10,
            includeDocuments: false,
          },
          LOCAL,
        ),
    },
  ];
  const warmup = Math.min(5, options.iterations);
  const rows: LargeTextRow[] = [];
  for (const search of heavy) {
    rows.push({
      operation: search.operation,
      target: 'p95 < 50 ms',
      client: await measure(options.iterations, () => call('query_journey_history', search.args), warmup),
      floor: await measure(options.iterations, search.floor, warmup),
    });
  }

  const interleaved = await cheapCallBeside(
    heavy.map((search) => () => call('query_journey_history', search.args)),
    () => call('query_journey_history', { journey_id: small }),
    options.iterations,
  );
  for (const journeyId of [withDocument, withNeedle, withSummaries, small])
    await call('delete_journey', { journey_id: journeyId });
  return { rows, interleaved };
}

/**
 * How long a cheap call (a newest-first page of a journey of 5 sessions) waits behind heavy ones: each heavy
 * call is sent first and the cheap one right behind it, on the same connection, the heavy calls in turn.
 */
export async function cheapCallBeside(
  heavy: readonly (() => Promise<unknown>)[],
  cheap: () => Promise<unknown>,
  iterations: number,
): Promise<InterleavedStats> {
  const alone = await measure(iterations, cheap, Math.min(5, iterations));
  const beside: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const heavyCall = heavy[i % heavy.length]!();
    const started = performance.now();
    await cheap();
    beside.push(performance.now() - started);
    await heavyCall;
  }
  return {
    operation: 'query_journey_history, newest first (5 sessions)',
    alone,
    besideHeavy: percentiles(beside),
  };
}
