// query_journey_history quotes bounded excerpts (issue #34, section 1): a summary of the largest allowed size
// made of control characters is 64 KiB stored, 384 KiB once JSON-escaped and again that in the text mirror;
// a page of 100 of them answered 81 MiB to a 0.2 KiB call. Each text an answer quotes (a summary's start, a
// snippet, a title) is now cut to JOURNEY_EXCERPT_BYTES as JSON writes it, and says when it was cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBytes } from '../src/journeys/excerpt.js';
import { ConfigError, DEFAULT_EXCERPT_BYTES, loadJourneyConfig, MAX_SUMMARY_BYTES } from '../src/index.js';
import {
  DIALECTS,
  history,
  newJourney,
  record,
  startHarness,
  storageFor,
  tempDataDir,
  type Harness,
} from './helpers.js';

/** The largest summary, every character but two a control character JSON writes as six bytes. */
const WORST_SUMMARY = `a${'\u0001'.repeat(MAX_SUMMARY_BYTES - 2)}b`;
/** The longest title (500 characters), escaped the same way. */
const WORST_TITLE = `a${'\u0001'.repeat(498)}b`;

/** What an answer weighs on the wire: its structured content and its text mirror, each as JSON. */
const answerBytes = (answer: { structured?: unknown; text: string }) =>
  Buffer.byteLength(JSON.stringify(answer.structured)) + Buffer.byteLength(JSON.stringify(answer.text));

describe.each(DIALECTS)('excerpts in query_journey_history (%s)', (dialect) => {
  let h: Harness;
  let journeyId: string;
  beforeAll(async () => {
    // 100 summaries of the largest size pass the default JOURNEY_MAX_TEXT_BYTES (4 MiB).
    h = await startHarness({
      storage: await storageFor(dialect),
      config: { maxTextBytes: 16 * 1024 * 1024 },
    });
    journeyId = await newJourney(h);
    for (let i = 0; i < 100; i++) await record(h, journeyId, WORST_SUMMARY);
    for (let i = 0; i < 20; i++) {
      await h.ok('add_document_to_journey', {
        journey_id: journeyId,
        document_type: 'note',
        title: WORST_TITLE,
        content: WORST_SUMMARY,
      });
    }
  });
  afterAll(async () => {
    await h.stop();
  });

  it('a page of 100 of the worst summaries answers each one’s start, cut and sized, far below 1 MiB', async () => {
    for (const args of [
      { limit: 100 },
      { limit: 100, query: 'a b', include_documents: true },
      { limit: 100, include_documents: true },
    ]) {
      const answer = await h.call('query_journey_history', { journey_id: journeyId, ...args });
      expect(answer.isError).toBe(false);
      const page = answer.structured as {
        sessions: { summary: string; summary_truncated?: true; summary_bytes?: number; snippet?: string }[];
        documents?: { title?: string; title_truncated?: true; snippet?: string }[];
      };
      expect(page.sessions).toHaveLength(100);
      for (const session of page.sessions) {
        expect(session).toMatchObject({ summary_truncated: true, summary_bytes: MAX_SUMMARY_BYTES });
        expect(WORST_SUMMARY.startsWith(session.summary)).toBe(true);
        expect(jsonBytes(session.summary)).toBeLessThanOrEqual(DEFAULT_EXCERPT_BYTES);
        if (args.query !== undefined) {
          expect(session.snippet).toContain('**a**');
          expect(jsonBytes(session.snippet!)).toBeLessThanOrEqual(DEFAULT_EXCERPT_BYTES);
        }
      }
      for (const document of page.documents ?? []) {
        expect(document.title_truncated).toBe(true);
        expect(WORST_TITLE.startsWith(document.title!)).toBe(true);
        expect(jsonBytes(document.title!)).toBeLessThanOrEqual(DEFAULT_EXCERPT_BYTES);
        if (document.snippet !== undefined) {
          expect(jsonBytes(document.snippet)).toBeLessThanOrEqual(DEFAULT_EXCERPT_BYTES);
        }
      }
      expect(answerBytes(answer)).toBeLessThan(512 * 1024);
    }
  });

  it('a summary that fits is answered whole, without summary_truncated', async () => {
    const short = await newJourney(h);
    const summary = 'Sleep was short: "late" work emails again.\n\tThe client agreed to stop at 21:00.';
    await record(h, short, summary);
    await h.ok('add_document_to_journey', { journey_id: short, document_type: 'note', title: 'Sleep plan' });
    const page = await history(h, { journey_id: short, include_documents: true });
    expect(page.sessions[0]?.summary).toBe(summary);
    expect(page.sessions[0]).not.toHaveProperty('summary_truncated');
    expect(page.sessions[0]).not.toHaveProperty('summary_bytes');
    expect(page.documents?.[0]).toMatchObject({ title: 'Sleep plan' });
    expect(page.documents?.[0]).not.toHaveProperty('title_truncated');
  });
});

describe('JOURNEY_EXCERPT_BYTES', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { excerptBytes: 47 } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('sets how much of a summary is quoted, cut before a word the bound would split', async () => {
    const journeyId = await newJourney(h);
    const summary = 'Sleep was short again: late work emails, then an early run before the meeting.';
    await record(h, journeyId, summary);
    const [session] = (await history(h, { journey_id: journeyId })).sessions;
    expect(session).toMatchObject({
      summary: 'Sleep was short again: late work emails, then ',
      summary_truncated: true,
      summary_bytes: Buffer.byteLength(summary),
    });
    const [found] = (await history(h, { journey_id: journeyId, query: 'meeting' })).sessions;
    expect(found?.snippet).toMatch(/\*\*meeting\*\*/);
    expect(jsonBytes(found!.snippet!)).toBeLessThanOrEqual(47);
  });

  it('is read from the environment and checked at start', () => {
    const dataDir = tempDataDir();
    expect(loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir, JOURNEY_EXCERPT_BYTES: '300' })).toMatchObject({
      excerptBytes: 300,
    });
    expect(loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir }).excerptBytes).toBeUndefined();
    for (const value of ['0', '15', '1KB', String(2 * 1024 * 1024)]) {
      const load = () => loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir, JOURNEY_EXCERPT_BYTES: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/^JOURNEY_EXCERPT_BYTES: /);
    }
  });
});
