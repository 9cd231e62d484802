import { describe, expect, it } from 'vitest';
import {
  HELSINKI,
  isoDuration,
  LONDON,
  localDateTime,
  offsetDateTime,
  serviceDayStart,
} from '../src/index.js';
import { compactDate, zonedParts, zonedToEpochMs } from '../src/time.js';

describe('time helpers', () => {
  it('prints OTP durations', () => {
    expect(isoDuration(600)).toBe('PT10M');
    expect(isoDuration(0)).toBe('PT0S');
    expect(isoDuration(-90)).toBe('-PT1M30S');
    expect(isoDuration(3725)).toBe('PT1H2M5S');
  });

  it('prints offsets across daylight saving time', () => {
    expect(offsetDateTime(Date.parse('2025-01-15T10:00:00Z'), HELSINKI)).toBe('2025-01-15T12:00:00+02:00');
    expect(offsetDateTime(Date.parse('2025-07-15T10:00:00Z'), HELSINKI)).toBe('2025-07-15T13:00:00+03:00');
    expect(localDateTime(Date.parse('2025-07-15T10:00:00Z'), LONDON)).toBe('2025-07-15T11:00:00');
    expect(localDateTime(Date.parse('2025-01-15T10:00:00Z'), LONDON)).toBe('2025-01-15T10:00:00');
  });

  it('finds the local midnight of the service day', () => {
    expect(serviceDayStart(Date.parse('2025-06-02T05:15:30Z'), HELSINKI)).toBe(
      Date.parse('2025-06-01T21:00:00Z') / 1000,
    );
    expect(serviceDayStart(Date.parse('2025-01-02T21:59:00Z'), HELSINKI)).toBe(
      Date.parse('2025-01-01T22:00:00Z') / 1000,
    );
    expect(serviceDayStart(Date.parse('2025-03-30T12:00:00Z'), HELSINKI)).toBe(
      Date.parse('2025-03-29T22:00:00Z') / 1000,
    );
  });

  it('keeps local midnight as the service day when the clocks go back', () => {
    expect(serviceDayStart(Date.parse('2025-10-26T12:00:00Z'), HELSINKI)).toBe(
      Date.parse('2025-10-25T21:00:00Z') / 1000,
    );
  });

  it('reads and writes wall-clock fields in the zone, weekday included', () => {
    const ms = Date.parse('2025-06-01T22:30:00Z');
    expect(zonedParts(ms, HELSINKI)).toEqual({
      year: 2025,
      month: 6,
      day: 2,
      hour: 1,
      minute: 30,
      second: 0,
      weekday: 1,
    });
    expect(compactDate(ms, HELSINKI)).toBe('20250602');
    expect(compactDate(ms, LONDON)).toBe('20250601');
    expect(zonedToEpochMs({ year: 2025, month: 6, day: 2, hour: 1, minute: 30 }, HELSINKI)).toBe(ms);
  });
});
