// Service alerts in get_departures and plan_trip: an additive warning code and optional field; the seeds'
// own warnings keep parsing as they did.
import { describe, expect, it } from 'vitest';
import {
  AnswerWarningSchema,
  GetDeparturesOutputSchema,
  PlanTripOutputSchema,
  WARNING_CODES,
} from '../src/transit/index.js';

const ALERT = {
  id: 'QWxlcnQ6SFNMOjhhNDFkMGMy',
  header: 'Linja 55: poikkeusreitti Kampissa',
  description: 'Linja 55 kulkee poikkeusreittiä Fredrikinkadun kautta.',
  language: 'fi',
  severity: 'warning',
  effect: 'DETOUR',
  cause: 'MAINTENANCE',
  validFrom: '2025-06-02T03:15:00Z',
  validUntil: '2025-06-02T11:15:00Z',
  affects: { lines: ['55'] },
};

describe('AnswerWarning', () => {
  it('keeps every seed warning code without an alert', () => {
    for (const code of WARNING_CODES) {
      expect(AnswerWarningSchema.parse({ code, message: 'm' })).toEqual({ code, message: 'm' });
    }
  });

  it('accepts a service-alert with its alert', () => {
    const warning = { code: 'service-alert', message: ALERT.header, alert: ALERT };
    expect(AnswerWarningSchema.parse(warning)).toEqual(warning);
    const legs = { ...ALERT, affects: { legs: [{ itinerary: 0, leg: 1 }] } };
    expect(AnswerWarningSchema.safeParse({ ...warning, alert: legs }).success).toBe(true);
  });

  it.each([
    [{ code: 'service-alert', message: 'm' }],
    [{ code: 'truncated-results', message: 'm', alert: ALERT }],
    [{ code: 'service-alert', message: 'm', alert: { ...ALERT, severity: 'SEVERE' } }],
    [{ code: 'service-alert', message: 'm', alert: { ...ALERT, language: 'de' } }],
    [
      {
        code: 'service-alert',
        message: 'm',
        alert: { ...ALERT, affects: { legs: [{ itinerary: -1, leg: 0 }] } },
      },
    ],
  ])('rejects %j', (warning) => {
    expect(AnswerWarningSchema.safeParse(warning).success).toBe(false);
  });

  it('is the warning of get_departures and plan_trip', () => {
    const warning = { code: 'service-alert', message: ALERT.header, alert: ALERT };
    expect(GetDeparturesOutputSchema.shape.warnings.parse([warning])).toEqual([warning]);
    expect(PlanTripOutputSchema.shape.warnings.parse([warning])).toEqual([warning]);
  });
});
