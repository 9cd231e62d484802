// A journey's size is bounded (issue #34, section 3): a search reads all of a journey's matching text to rank
// it, so sessions recorded without end (about 500 a second) made each search as slow as the caller liked.
// JOURNEY_MAX_SESSIONS and JOURNEY_MAX_TEXT_BYTES refuse what would pass them, naming the setting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_TEXT_BYTES,
  loadJourneyConfig,
  MAX_SUMMARY_BYTES,
} from '../src/index.js';
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

describe.each(DIALECTS)('per-journey bounds (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      storage: await storageFor(dialect),
      config: { maxSessions: 3, maxTextBytes: 100 },
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('JOURNEY_MAX_SESSIONS: one session more is refused, naming the setting and the count', async () => {
    const journeyId = await newJourney(h);
    for (const summary of ['one', 'two', 'three']) await record(h, journeyId, summary);
    expect(await h.fails('record_session', { journey_id: journeyId, summary: 'four' })).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: `journey ${journeyId} already has 3 sessions, the most JOURNEY_MAX_SESSIONS allows (3)`,
    });
    expect((await history(h, { journey_id: journeyId })).total_results).toBe(3);
    // Another journey has its own count.
    await record(h, await newJourney(h), 'four, elsewhere');
  });

  it('JOURNEY_MAX_TEXT_BYTES: summaries and document texts count, up to the bound and not past it', async () => {
    const journeyId = await newJourney(h);
    await record(h, journeyId, 'x'.repeat(40));
    await h.ok('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'note',
      title: 'é'.repeat(5),
      content: 'y'.repeat(40),
    });
    // 40 + 10 + 40 = 90 bytes held: 10 more fit, 11 do not.
    expect(await h.fails('record_session', { journey_id: journeyId, summary: 'z'.repeat(11) })).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: `journey ${journeyId} holds 90 bytes of text; 11 more would pass JOURNEY_MAX_TEXT_BYTES (100)`,
    });
    const document = { journey_id: journeyId, document_type: 'note', content: 'w'.repeat(11) };
    await expect(h.fails('add_document_to_journey', document)).resolves.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('JOURNEY_MAX_TEXT_BYTES'),
    });
    await record(h, journeyId, 'z'.repeat(10));
    // A document without text adds none.
    await h.ok('add_document_to_journey', { journey_id: journeyId, document_type: 'note' });
  });
});

describe('the bounds’ settings', () => {
  it('default to 1000 sessions and 2 MiB of text: 32 summaries of the largest size', () => {
    expect(DEFAULT_MAX_SESSIONS).toBe(1000);
    expect(DEFAULT_MAX_TEXT_BYTES).toBe(32 * MAX_SUMMARY_BYTES);
  });

  it('are read from the environment and checked at start', () => {
    const dataDir = tempDataDir();
    expect(
      loadJourneyConfig({
        SWITCHYARD_DATA_DIR: dataDir,
        JOURNEY_MAX_SESSIONS: '10',
        JOURNEY_MAX_TEXT_BYTES: '65536',
      }),
    ).toMatchObject({ maxSessions: 10, maxTextBytes: 65536, maxDocumentBytes: 65536 });
    const unset = loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir });
    expect([unset.maxSessions, unset.maxTextBytes]).toEqual([undefined, undefined]);
    for (const [name, value] of [
      ['JOURNEY_MAX_SESSIONS', '0'],
      ['JOURNEY_MAX_SESSIONS', 'lots'],
      ['JOURNEY_MAX_TEXT_BYTES', '0'],
      ['JOURNEY_MAX_TEXT_BYTES', '8MiB'],
    ] as const) {
      const load = () => loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir, [name]: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(new RegExp(`^${name}: `));
    }
  });
});
