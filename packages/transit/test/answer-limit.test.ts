import fs from 'node:fs';
import { createRequire } from 'node:module';
import {
  FindStopsOutputSchema,
  GetDeparturesOutputSchema,
  GetLineStatusOutputSchema,
} from '@switchyard/contracts/transit';
import { otpReply, reply } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import { useHarness } from './helpers.js';

/**
 * An answer that would pass the answer limit (SWITCHYARD_MAX_ANSWER_BYTES) is cut at an item boundary, keeps
 * its best items, and says what was left out and what to narrow: in a truncated-results warning where the
 * contract has warnings, else in the envelope's message. The upstreams here answer with long texts full of
 * control characters (six bytes each in JSON, seven more in the text mirror).
 */
const LIMIT = 64 * 1024;
const h = useHarness({ maxAnswerBytes: LIMIT });
const WORST = '\u0001'.repeat(2000);

const tflLine = JSON.parse(
  fs.readFileSync(
    createRequire(import.meta.url).resolve('@switchyard/upstream-mocks/fixtures/tfl/line-status.json'),
    'utf8',
  ),
)[0] as Record<string, unknown>;

/** What a tool answer takes on the wire: structured content and text mirror, serialized. */
function wireBytes(answer: { structured: unknown; text?: string }): number {
  return (
    Buffer.byteLength(JSON.stringify(answer.structured)) +
    Buffer.byteLength(JSON.stringify(JSON.stringify(answer.structured)))
  );
}

describe('answers held to the answer limit', () => {
  it('get_line_status: every line of a mode, each with a long disruption, cut with the message saying so', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({
      ...tflLine,
      id: `line-${i}`,
      name: `Line ${i}`,
      lineStatuses: [
        { statusSeverity: 6, statusSeverityDescription: 'Severe Delays', reason: WORST, validityPeriods: [] },
      ],
    }));
    h.tfl.scenario(() => reply.json(200, lines));
    const answer = await h.call('get_line_status', { modes: ['bus'] });
    const output = GetLineStatusOutputSchema.parse(answer.structured);
    expect(output.success).toBe(true);
    expect(wireBytes(answer)).toBeLessThanOrEqual(LIMIT);
    expect(output.lines?.length).toBeGreaterThan(0);
    expect(output.lines?.length).toBeLessThan(40);
    expect(output.message).toMatch(
      new RegExp(
        `${40 - (output.lines?.length ?? 0)} more lines left out: the answer passed the server's answer limit \\(65536 bytes\\); ask for fewer lines`,
      ),
    );
  });

  it('get_departures: long headsigns, cut with a truncated-results warning after the others', async () => {
    const serviceDay = Math.floor(Date.now() / 1000) - 3600;
    const departures = Array.from({ length: 30 }, (_, i) => ({
      serviceDay,
      scheduledDeparture: 3600 + 120 + 60 * i,
      realtimeDeparture: 3600 + 120 + 60 * i,
      realtime: false,
      realtimeState: 'SCHEDULED',
      headsign: WORST,
      trip: { tripHeadsign: WORST, route: { gtfsId: `HSL:${i}`, shortName: `${i}`, mode: 'BUS' } },
    }));
    h.digitransit.scenario((request) =>
      otpReply(request, {
        data: { stop: { gtfsId: 'HSL:1040129', name: 'Kamppi', stoptimesWithoutPatterns: departures } },
      }),
    );
    const answer = await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1040129' }, limit: 30 });
    const output = GetDeparturesOutputSchema.parse(answer.structured);
    expect(wireBytes(answer)).toBeLessThanOrEqual(LIMIT);
    expect(output.departures.length).toBeGreaterThan(0);
    expect(output.departures.length).toBeLessThan(30);
    expect(output.warnings?.at(-1)).toMatchObject({
      code: 'truncated-results',
      message: expect.stringMatching(/^\d+ more departures left out: .*ask for fewer \(limit\)\.$/),
    });
  });

  it('find_stops: an answer under the limit is whole, with no warning added', async () => {
    const answer = await h.call('find_stops', { name: 'Kamppi' });
    const output = FindStopsOutputSchema.parse(answer.structured);
    expect(output.warnings ?? []).not.toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('answer limit') }),
    );
  });
});
