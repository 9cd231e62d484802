// get_line_status' contract: lines or modes, a date range only with lines and at most 31 days, and the
// planJourney-style envelope.
import { describe, expect, it } from 'vitest';
import { SwitchyardError } from '../src/errors/index.js';
import {
  GetLineStatusInputSchema,
  GetLineStatusOutputSchema,
  lineStatusErrorEnvelope,
} from '../src/transit/index.js';

describe('get_line_status input', () => {
  it.each([
    [{ lines: ['Victoria', ' central '] }, { lines: ['victoria', 'central'] }],
    [{ modes: ['tube', 'dlr'] }, { modes: ['tube', 'dlr'] }],
    [
      { lines: ['northern'], from: '2026-11-28', to: '2026-11-29' },
      { lines: ['northern'], from: '2026-11-28', to: '2026-11-29' },
    ],
    [
      { lines: ['northern'], from: '2026-11-01', to: '2026-12-01' },
      { lines: ['northern'], from: '2026-11-01', to: '2026-12-01' },
    ],
  ])('accepts %j', (input, parsed) => {
    expect(GetLineStatusInputSchema.parse(input)).toEqual(parsed);
  });

  it.each([
    [{}, 'lines', 'give either lines or modes'],
    [{ lines: ['victoria'], modes: ['tube'] }, 'lines', 'give either lines or modes'],
    [{ lines: [] }, 'lines', 'lines must name at least one line'],
    [{ lines: Array(21).fill('victoria') }, 'lines', 'at most 20'],
    [{ lines: ['a b'] }, 'lines.0', 'TfL line id'],
    [{ modes: ['submarine'] }, 'modes.0', 'modes are tube'],
    [{ lines: ['victoria'], from: '2026-11-28' }, 'from', 'from and to go together'],
    [{ modes: ['tube'], from: '2026-11-28', to: '2026-11-29' }, 'from', 'needs lines'],
    [{ lines: ['victoria'], from: '2026-11-29', to: '2026-11-28' }, 'to', 'not be before'],
    [{ lines: ['victoria'], from: '2026-11-01', to: '2026-12-02' }, 'to', 'at most 31 days'],
    [{ lines: ['victoria'], from: '28/11/2026', to: '2026-11-29' }, 'from', 'YYYY-MM-DD'],
    [{ lines: ['victoria'], from: '2026-02-30', to: '2026-03-01' }, 'from', 'YYYY-MM-DD'],
    [{ lines: ['victoria'], extra: 1 }, '', 'extra'],
  ])('rejects %j at %s, saying what to fix', (input, path, message) => {
    const result = GetLineStatusInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error!.issues.find((candidate) => candidate.path.join('.') === path);
    expect(issue?.message ?? JSON.stringify(result.error!.issues)).toContain(message);
  });
});

describe('get_line_status envelope', () => {
  const ok = {
    success: true,
    code: 'OK',
    message: '1 line: 0 disrupted.',
    lines: [
      {
        id: 'victoria',
        name: 'Victoria',
        mode: 'tube',
        disrupted: false,
        statuses: [{ severity: 10, description: 'Good Service', validity: [] }],
      },
    ],
    dataFreshness: '2026-11-24T07:00:00.000Z',
    validUntil: '2026-11-24T07:00:30.000Z',
  };

  it('accepts an answer, and an error envelope with every data field null', () => {
    expect(GetLineStatusOutputSchema.parse(ok)).toEqual(ok);
    const failure = lineStatusErrorEnvelope(new SwitchyardError('rate-limited', 'TfL says wait'));
    expect(GetLineStatusOutputSchema.parse(failure)).toEqual({
      success: false,
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'TfL says wait',
      lines: null,
      dataFreshness: null,
      validUntil: null,
    });
  });

  it('ties success, code and lines together', () => {
    expect(GetLineStatusOutputSchema.safeParse({ ...ok, code: 'UPSTREAM_ERROR' }).success).toBe(false);
    expect(GetLineStatusOutputSchema.safeParse({ ...ok, lines: null }).success).toBe(false);
  });
});
