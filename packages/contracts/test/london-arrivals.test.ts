// get_london_arrivals' contract and the saved tfl-stop kind: input rules, the planJourney-style envelope, and
// that saved places written before the kind existed still read.
import { describe, expect, it } from 'vitest';
import { SwitchyardError } from '../src/errors/index.js';
import {
  GetLondonArrivalsInputSchema,
  GetLondonArrivalsOutputSchema,
  GetUserVariablesInputSchema,
  londonArrivalsErrorEnvelope,
  SavedPlaceValueSchema,
} from '../src/transit/index.js';

const OK = {
  success: true,
  code: 'OK',
  message: '1 next arrival at X, soonest first.',
  stopId: '940GZZLUOXC',
  stopName: 'Oxford Circus Underground Station',
  arrivals: [],
  dataFreshness: '2025-06-02T05:15:26.000Z',
  validUntil: '2025-06-02T05:16:00.000Z',
};

describe('get_london_arrivals input', () => {
  it('defaults direction to all and limit to 10; lower-cases line ids', () => {
    expect(
      GetLondonArrivalsInputSchema.parse({ stop: { type: 'id', value: '940GZZLUOXC' }, lines: ['Victoria'] }),
    ).toEqual({
      stop: { type: 'id', value: '940GZZLUOXC' },
      lines: ['victoria'],
      direction: 'all',
      limit: 10,
    });
  });

  it.each([
    [{ stop: { type: 'id', value: '940GZZLUOXC/../x' } }, 'stop.value'],
    [{ stop: { type: 'id', value: '' } }, 'stop.value'],
    [{ stop: { type: 'label', value: 'x'.repeat(201) } }, 'stop.value'],
    [{ stop: { type: 'id', value: '940GZZLUOXC' }, lines: [] }, 'lines'],
    [{ stop: { type: 'id', value: '940GZZLUOXC' }, lines: Array(11).fill('victoria') }, 'lines'],
    [{ stop: { type: 'id', value: '940GZZLUOXC' }, lines: ['a b'] }, 'lines.0'],
    [{ stop: { type: 'id', value: '940GZZLUOXC' }, direction: 'north' }, 'direction'],
    [{ stop: { type: 'id', value: '940GZZLUOXC' }, limit: 51 }, 'limit'],
    [{ stop: { type: 'id', value: '940GZZLUOXC' }, extra: true }, ''],
  ])('rejects %j at %s', (input, path) => {
    const result = GetLondonArrivalsInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toContain(path);
  });

  it('a label may be any saved key', () => {
    expect(
      GetLondonArrivalsInputSchema.safeParse({ stop: { type: 'label', value: 'my stop' } }).success,
    ).toBe(true);
  });
});

describe('get_london_arrivals envelope', () => {
  it('success carries a list and OK; failure carries null data and a code', () => {
    expect(GetLondonArrivalsOutputSchema.safeParse(OK).success).toBe(true);
    expect(GetLondonArrivalsOutputSchema.safeParse({ ...OK, arrivals: null }).success).toBe(false);
    expect(GetLondonArrivalsOutputSchema.safeParse({ ...OK, code: 'UPSTREAM_ERROR' }).success).toBe(false);
    expect(GetLondonArrivalsOutputSchema.safeParse({ ...OK, code: 'DISAMBIGUATION_REQUIRED' }).success).toBe(
      false,
    );
  });

  it.each([
    ['validation', 'VALIDATION_ERROR'],
    ['not-found', 'VALIDATION_ERROR'],
    ['rate-limited', 'RATE_LIMIT_EXCEEDED'],
    ['upstream-timeout', 'UPSTREAM_TIMEOUT'],
    ['network-error', 'UPSTREAM_ERROR'],
    ['internal', 'INTERNAL_ERROR'],
  ] as const)('%s is %s in a valid envelope', (kind, code) => {
    const envelope = londonArrivalsErrorEnvelope(new SwitchyardError(kind, 'what happened'));
    expect(envelope).toEqual({
      success: false,
      code,
      message: 'what happened',
      stopId: null,
      stopName: null,
      arrivals: null,
      dataFreshness: null,
      validUntil: null,
    });
    expect(GetLondonArrivalsOutputSchema.safeParse(envelope).success).toBe(true);
  });
});

describe('saved tfl-stop', () => {
  it('is a third kind; the two earlier kinds read as before', () => {
    expect(SavedPlaceValueSchema.parse({ type: 'tfl-stop', naptanId: '940GZZLUOXC' })).toEqual({
      type: 'tfl-stop',
      naptanId: '940GZZLUOXC',
    });
    expect(SavedPlaceValueSchema.parse({ type: 'stop', stopId: 'HSL:1040129' }).type).toBe('stop');
    expect(SavedPlaceValueSchema.parse({ type: 'location', lat: 60.17, lon: 24.94 }).type).toBe('location');
    expect(GetUserVariablesInputSchema.parse({ type: 'tfl-stop' })).toEqual({ type: 'tfl-stop' });
  });

  it('needs a NaPTAN id, and says which kinds exist', () => {
    const bad = SavedPlaceValueSchema.safeParse({ type: 'tfl-stop', naptanId: 'HSL:1040129' });
    expect(bad.error!.issues[0]!.message).toMatch(/NaPTAN/);
    const unknown = SavedPlaceValueSchema.safeParse({ type: 'bus-stop' });
    expect(unknown.error!.issues[0]!.message).toBe("value.type must be 'location', 'stop' or 'tfl-stop'");
  });
});
