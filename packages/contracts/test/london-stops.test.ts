// find_london_stops' contract: exactly one of name or near, the radius and limit bounds, modes, and the
// planJourney-style envelope.
import { describe, expect, it } from 'vitest';
import { SwitchyardError } from '../src/errors/index.js';
import {
  FindLondonStopsInputSchema,
  FindLondonStopsOutputSchema,
  londonStopsErrorEnvelope,
} from '../src/transit/index.js';

const NEAR = { lat: 51.515, lon: -0.142 };

describe('find_london_stops input', () => {
  it('defaults radiusMeters to 300 and limit to 10', () => {
    expect(FindLondonStopsInputSchema.parse({ near: NEAR })).toEqual({
      near: NEAR,
      radiusMeters: 300,
      limit: 10,
    });
    expect(FindLondonStopsInputSchema.parse({ name: ' Bank ', modes: ['tube'] })).toEqual({
      name: 'Bank',
      modes: ['tube'],
      radiusMeters: 300,
      limit: 10,
    });
  });

  it.each([
    [{}, '', 'give exactly one of name or near'],
    [{ name: 'Bank', near: NEAR }, '', 'give exactly one of name or near'],
    [{ name: 'B' }, 'name', 'at least 2 characters'],
    [{ near: NEAR, radiusMeters: 2001 }, 'radiusMeters', 'between 1 and 2000'],
    [{ near: NEAR, radiusMeters: 0 }, 'radiusMeters', 'between 1 and 2000'],
    [{ name: 'Bank', limit: 51 }, 'limit', 'between 1 and 50'],
    [{ name: 'Bank', modes: [] }, 'modes', 'at least one mode'],
    [{ name: 'Bank', modes: ['hovercraft'] }, 'modes.0', 'modes are tube'],
    [{ near: { lat: 91, lon: 0 } }, 'near.lat', ''],
  ])('rejects %j at %s', (input, path, message) => {
    const result = FindLondonStopsInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error!.issues.find((candidate) => candidate.path.join('.') === path);
    expect(issue?.message ?? JSON.stringify(result.error!.issues)).toContain(message);
  });
});

describe('find_london_stops envelope', () => {
  it('accepts an answer and a failure with stops null, and ties success, code and stops together', () => {
    const ok = {
      success: true,
      code: 'OK',
      message: '1 stop matching "Bank".',
      stops: [
        {
          id: '940GZZLUBNK',
          name: 'Bank Underground Station',
          lat: 51.51,
          lon: -0.09,
          modes: ['tube'],
          lines: [],
        },
      ],
    };
    expect(FindLondonStopsOutputSchema.parse(ok)).toEqual(ok);
    const failure = londonStopsErrorEnvelope(new SwitchyardError('upstream-timeout', 'TfL did not answer'));
    expect(FindLondonStopsOutputSchema.parse(failure)).toEqual({
      success: false,
      code: 'UPSTREAM_TIMEOUT',
      message: 'TfL did not answer',
      stops: null,
    });
    expect(FindLondonStopsOutputSchema.safeParse({ ...ok, stops: null }).success).toBe(false);
    expect(FindLondonStopsOutputSchema.safeParse({ ...failure, stops: [] }).success).toBe(false);
  });
});
