// Arguments that become TfL path segments never change the path: "." and ".." (which URL resolution would
// drop or climb) are the caller's VALIDATION_ERROR before TfL is asked; "%2e%2e" and "/" stay inside their
// segment. Through a real SDK client against the TfL mock, and for the path builders whose arguments the
// contract already holds to ids (lines, modes, stop ids) as plain functions.
import { SwitchyardError } from '@switchyard/contracts/errors';
import { FindLondonStopsOutputSchema, PlanJourneyOutputSchema } from '@switchyard/contracts/transit';
import { describe, expect, it } from 'vitest';
import { arrivalsRequest } from '../src/tfl/arrivals-client.js';
import { journeyResultsPath } from '../src/tfl/client.js';
import { lineStatusPath } from '../src/tfl/line-status-client.js';
import { stopsRequest } from '../src/tfl/stops-client.js';
import { useHarness } from './helpers.js';

const h = useHarness({ env: { TRANSIT_RETRY_BUDGET_MS: '0', LONDON_STOPS_TPS: '1000' } });

const DOT_SEGMENTS = ['.', '..'];

describe('planJourney: from and to are whole path segments', () => {
  it.each(['from', 'to'] as const)(
    '%s "." or "..": VALIDATION_ERROR naming the field, nothing sent',
    async (side) => {
      for (const value of DOT_SEGMENTS) {
        const args = { from: 'Bank', to: 'Waterloo', [side]: value };
        const answer = await h.call('planJourney', args);
        expect(answer.isError).toBe(true);
        const output = PlanJourneyOutputSchema.parse(answer.structured);
        expect(output).toMatchObject({ success: false, code: 'VALIDATION_ERROR', topJourneys: null });
        expect(output.message).toContain(`${side} must be a name, id or code, not "${value}"`);
      }
      expect(h.tfl.requests).toEqual([]);
    },
  );

  it.each([
    ['%2e%2e', '%252e%252e'],
    ['%2E', '%252E'],
    ['../..', '..%2F..'],
    ['Bank/../../StopPoint', 'Bank%2F..%2F..%2FStopPoint'],
  ])('%j as from or as to reaches TfL inside its segment (%s)', async (value, encoded) => {
    await h.call('planJourney', { from: value, to: 'Waterloo' });
    await h.call('planJourney', { from: 'Bank', to: value });
    expect(h.tfl.requests.map((request) => request.path)).toEqual([
      `/Journey/JourneyResults/${encoded}/to/Waterloo`,
      `/Journey/JourneyResults/Bank/to/${encoded}`,
    ]);
    expect(h.tfl.requests.map((request) => request.params)).toEqual([
      expect.objectContaining({ from: value, to: 'Waterloo' }),
      expect.objectContaining({ from: 'Bank', to: value }),
    ]);
  });
});

describe('find_london_stops: the name is a whole path segment', () => {
  it('".." (with spaces around it too): VALIDATION_ERROR naming name, nothing sent', async () => {
    for (const name of ['..', ' .. ']) {
      const answer = await h.call('find_london_stops', { name });
      expect(answer.isError).toBe(true);
      const output = FindLondonStopsOutputSchema.parse(answer.structured);
      expect(output).toMatchObject({ success: false, code: 'VALIDATION_ERROR', stops: null });
      expect(output.message).toContain('name must be a name, id or code, not ".."');
    }
    expect(h.tfl.requests).toEqual([]);
  });

  it.each([
    ['%2e%2e', '%252e%252e'],
    ['../..', '..%2F..'],
    ['Bank/..', 'Bank%2F..'],
  ])('%j reaches TfL inside its segment (%s)', async (name, encoded) => {
    await h.call('find_london_stops', { name });
    const [request] = h.tfl.requests;
    expect(request).toMatchObject({ path: `/StopPoint/Search/${encoded}`, params: { query: name } });
  });
});

describe('every TfL path builder takes its arguments through the segment rule', () => {
  const refused = (build: () => unknown, field: string) => {
    let thrown: unknown;
    try {
      build();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SwitchyardError);
    expect(thrown).toMatchObject({ kind: 'validation', message: expect.stringContaining(`${field} must`) });
  };

  it.each(DOT_SEGMENTS)('%j is refused wherever it would be a segment', (value) => {
    refused(() => journeyResultsPath(value, 'Bank'), 'from');
    refused(() => journeyResultsPath('Bank', value), 'to');
    refused(() => stopsRequest({ name: value, radiusMeters: 500, limit: 10 }), 'name');
    refused(() => arrivalsRequest({ stopId: value, direction: 'all' }), 'stop');
    refused(() => arrivalsRequest({ stopId: '940GZZLUOXC', lineIds: [value], direction: 'all' }), 'lines');
    refused(() => lineStatusPath({ lineIds: [value] }), 'lines');
    refused(
      () => lineStatusPath({ lineIds: [value], days: { from: '2026-01-01', to: '2026-01-02' } }),
      'lines',
    );
    refused(() => lineStatusPath({ modes: [value as 'tube'] }), 'modes');
  });

  it('dots in a longer value are no dot segment', () => {
    expect(journeyResultsPath('St. Pancras', '...')).toBe('Journey/JourneyResults/St.%20Pancras/to/...');
  });
});
