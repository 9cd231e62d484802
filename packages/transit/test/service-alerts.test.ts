// Helsinki service alerts as `service-alert` warnings of get_departures and plan_trip: through a real SDK client
// against the Digitransit mock's `service-alerts` scenario (alerts on stops, routes and legs, one expired, one
// upcoming), and the picking rules (language chain, text bound, order) on their own.
import {
  GetDeparturesOutputSchema,
  PlanTripOutputSchema,
  type AnswerWarning,
  type ServiceAlert,
} from '@switchyard/contracts/transit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bounded, languageChain, pickText, serviceAlertWarnings, type OtpAlert } from '../src/hsl/alerts.js';
import { startHarness, useHarness, type Harness } from './helpers.js';

const STOP = { type: 'id', value: 'HSL:1040129' } as const;
const TRIP = {
  origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } },
  destination: { type: 'coords', value: { lat: 60.1989, lon: 24.9335 } },
  limit: 3,
};

function alertsOf(warnings: readonly AnswerWarning[] | undefined): ServiceAlert[] {
  return (warnings ?? []).filter((w) => w.code === 'service-alert').map((w) => w.alert!);
}

async function departures(h: Harness, args: Record<string, unknown>) {
  const answer = await h.call('get_departures', { stop: STOP, ...args });
  expect(answer.isError).toBe(false);
  return GetDeparturesOutputSchema.parse(answer.structured);
}

async function trip(h: Harness, args: Record<string, unknown> = {}) {
  const answer = await h.call('plan_trip', { ...TRIP, ...args });
  expect(answer.isError).toBe(false);
  return PlanTripOutputSchema.parse(answer.structured);
}

describe('service alerts through the tools', () => {
  const h = useHarness();

  it('get_departures: no alerts, no service-alert warning (asked in the same request)', async () => {
    const output = await departures(h, {});
    expect(alertsOf(output.warnings)).toEqual([]);
    const requests = h.digitransit.requests.filter((r) => r.endpoint === 'routing');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.graphql?.query).toMatch(/alerts @include\(if: \$withAlerts\)/);
    expect(requests[0]!.graphql?.variables).toMatchObject({ withAlerts: true });
  });

  it("get_departures: the stop's alert and the alerts of the answer's lines, once each, in English", async () => {
    h.digitransit.scenario('service-alerts');
    const output = await departures(h, { limit: 10 });
    expect(h.digitransit.requests.filter((r) => r.endpoint === 'routing')).toHaveLength(1);
    const alerts = alertsOf(output.warnings);
    expect(alerts.map((a) => a.header)).toEqual([
      'Stop Arkadian puisto (H1232) moved',
      // No English text: the chain falls back to Finnish.
      'Linja 55: poikkeusreitti Kampissa',
      'Bus 18: demonstration',
    ]);
    expect(new Set(alerts.map((a) => a.id)).size).toBe(alerts.length);
    const [stopAlert, detour, demonstration] = alerts;
    expect(stopAlert).toMatchObject({
      language: 'en',
      severity: 'warning',
      effect: 'STOP_MOVED',
      cause: 'CONSTRUCTION',
      description: 'Due to roadworks, the stop is moved about 50 metres towards Mannerheimintie.',
      url: 'https://www.hsl.fi/en/travelling/traffic-bulletins',
      affects: { stopIds: ['HSL:1040129'] },
    });
    expect(Date.parse(stopAlert!.validFrom!)).toBeLessThan(Date.now());
    expect(Date.parse(stopAlert!.validUntil!)).toBeGreaterThan(Date.now());
    expect(detour).toMatchObject({ language: 'fi', severity: 'warning', affects: { lines: ['55'] } });
    expect(demonstration).toMatchObject({ language: 'en', severity: 'info', affects: { lines: ['18'] } });
    // The warning's message is the header; the seed's own warnings keep their shape.
    const warning = output.warnings!.find((w) => w.code === 'service-alert')!;
    expect(warning.message).toBe(stopAlert!.header);
  });

  it('get_departures: an alert that starts after the window is left out', async () => {
    h.digitransit.scenario('service-alerts');
    const output = await departures(h, { windowMinutes: 120, limit: 50 });
    expect(alertsOf(output.warnings).map((a) => a.header)).not.toContain(
      'Stop Arkadian puisto closed this evening',
    );
    expect(alertsOf(output.warnings)).toHaveLength(3);
  });

  it('get_departures: a route alert appears only when that line is in the answer', async () => {
    h.digitransit.scenario('service-alerts');
    const output = await departures(h, { limit: 1 });
    expect(output.departures.map((d) => d.line)).toEqual(['55']);
    expect(alertsOf(output.warnings).flatMap((a) => a.affects.lines ?? [])).toEqual(['55']);
  });

  it('get_departures: texts in the requested language (sv)', async () => {
    h.digitransit.scenario('service-alerts');
    const output = await departures(h, { language: 'sv' });
    expect(alertsOf(output.warnings).map((a) => [a.language, a.header])).toEqual([
      ['sv', 'Hållplatsen Arkadiaparken (H1232) flyttas'],
      ['sv', 'Linje 55: undantagsrutt i Kampen'],
      ['sv', 'Linje 18: demonstration'],
    ]);
  });

  it('plan_trip: leg alerts valid during their leg, most severe first, once per alert with every leg named', async () => {
    h.digitransit.scenario('service-alerts');
    const output = await trip(h);
    expect(h.digitransit.requests.filter((r) => r.endpoint === 'routing')).toHaveLength(1);
    const alerts = alertsOf(output.warnings);
    expect(new Set(alerts.map((a) => a.id)).size).toBe(alerts.length);
    expect(alerts[0]).toMatchObject({
      header: 'Tram 9: significant delays',
      severity: 'severe',
      language: 'en',
    });
    const headers = alerts.map((a) => a.header);
    // The I train's notice ended an hour ago; the stop closes three hours after the bus leaves it.
    expect(headers).not.toContain('I train: track works over');
    expect(headers).not.toContain('Stop Arkadian puisto closed this evening');
    expect(headers).toEqual(
      expect.arrayContaining(['Linja 55: poikkeusreitti Kampissa', 'Stop Arkadian puisto (H1232) moved']),
    );
    for (const alert of alerts) {
      expect(alert.affects.legs?.length).toBeGreaterThan(0);
      for (const ref of alert.affects.legs!) {
        const leg = output.itineraries[ref.itinerary]!.legs[ref.leg]!;
        expect(leg.transit).toBe(true);
      }
    }
    const tramLegs = alerts[0]!.affects.legs!.map((ref) => output.itineraries[ref.itinerary]!.legs[ref.leg]!);
    expect(tramLegs.every((leg) => leg.line === '9')).toBe(true);
    expect(tramLegs.length).toBe(
      output.itineraries.filter((it) => it.legs.some((l) => l.line === '9')).length,
    );
  });

  it('plan_trip: texts in Finnish when asked', async () => {
    h.digitransit.scenario('service-alerts');
    const output = await trip(h, { constraints: { language: 'fi' } });
    expect(alertsOf(output.warnings)[0]).toMatchObject({
      header: 'Raitiolinja 9: merkittäviä viivästyksiä',
      language: 'fi',
    });
  });
});

describe('service alert bounds (settings)', () => {
  let h: Harness;
  afterAll(async () => {
    await h.close();
  });

  it('HSL_ALERTS_MAX keeps the most severe; HSL_ALERT_TEXT_MAX_CHARS cuts texts', async () => {
    h = await startHarness({ env: { HSL_ALERTS_MAX: '1', HSL_ALERT_TEXT_MAX_CHARS: '40' } });
    h.digitransit.scenario('service-alerts');
    const output = await trip(h);
    const alerts = alertsOf(output.warnings);
    expect(alerts.map((a) => a.severity)).toEqual(['severe']);
    const description = alerts[0]!.description!;
    expect(Array.from(description)).toHaveLength(40);
    expect(description.endsWith('…')).toBe(true);
    expect(output.warnings!.find((w) => w.code === 'service-alert')!.message).toBe(alerts[0]!.header);
  });
});

describe('HSL_ALERTS_MAX=0', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { HSL_ALERTS_MAX: '0' } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('asks for no alerts and answers none', async () => {
    h.digitransit.scenario('service-alerts');
    const board = await departures(h, {});
    const plan = await trip(h);
    expect(alertsOf(board.warnings)).toEqual([]);
    expect(alertsOf(plan.warnings)).toEqual([]);
    for (const request of h.digitransit.requests.filter((r) => r.endpoint === 'routing')) {
      expect(request.graphql?.variables).toMatchObject({ withAlerts: false });
    }
  });
});

describe('picking an alert text', () => {
  const t = (language: string | undefined, text: string) => ({ language, text });
  const all = [t('en', 'E'), t('sv', 'S'), t('fi', 'F')];

  it.each([
    ['en', all, { text: 'E', language: 'en' }],
    ['sv', all, { text: 'S', language: 'sv' }],
    ['en', [t('sv', 'S'), t('fi', 'F')], { text: 'F', language: 'fi' }],
    ['fi', [t('en', 'E'), t('sv', 'S')], { text: 'S', language: 'sv' }],
    ['sv', [t('en', 'E')], { text: 'E', language: 'en' }],
    ['en', [t('fi-FI', 'F')], { text: 'F', language: 'fi' }],
    ['en', [t('de', 'D'), t(undefined, 'U')], { text: 'U' }],
    ['en', [t('de', 'D')], { text: 'OTP' }],
    ['en', [t('en', '  ')], { text: 'OTP' }],
  ] as const)('asked %s of %j: %j', (asked, translations, expected) => {
    expect(pickText(translations, 'OTP', languageChain(asked))).toEqual(expected);
  });

  it("the description and URL in the header's language first, so that they read as one text", () => {
    const alert: OtpAlert = {
      id: 'x',
      alertHeaderTextTranslations: [t('fi', 'Otsikko')],
      alertDescriptionTextTranslations: [t('en', 'Description'), t('fi', 'Kuvaus')],
      alertUrlTranslations: [t('en', 'https://hsl.fi/en'), t('fi', 'https://hsl.fi/fi')],
    };
    const [warning] = serviceAlertWarnings(
      [{ alerts: [alert], affects: { line: '55' }, window: { startMs: 0, endMs: 1 } }],
      { language: 'en', limits: { max: 5, textMaxChars: 100 } },
    );
    expect(warning!.alert).toMatchObject({
      header: 'Otsikko',
      language: 'fi',
      description: 'Kuvaus',
      url: 'https://hsl.fi/fi',
    });
  });

  it('no text anywhere is no text', () => {
    expect(pickText([], undefined, ['en', 'fi', 'sv'])).toBeUndefined();
  });

  it('bounds text in characters without splitting a surrogate pair', () => {
    expect(bounded('short', 10)).toBe('short');
    expect(bounded('🚋🚋🚋🚋', 3)).toBe('🚋🚋…');
  });

  it('merges an alert found on several things; leaves out one without text; unknown severity sorts last', () => {
    const alert = (id: string, severity?: string): OtpAlert => ({
      id,
      alertHeaderText: `header ${id}`,
      alertHeaderTextTranslations: [],
      alertDescriptionTextTranslations: [],
      alertUrlTranslations: [],
      ...(severity === undefined ? {} : { alertSeverityLevel: severity }),
    });
    const window = { startMs: 0, endMs: 1 };
    const warnings = serviceAlertWarnings(
      [
        { alerts: [alert('a'), alert('b', 'INFO')], affects: { line: '55' }, window },
        {
          alerts: [alert('a'), { ...alert('c', 'SEVERE'), alertHeaderText: ' ' }],
          affects: { line: '18' },
          window,
        },
      ],
      { language: 'en', limits: { max: 5, textMaxChars: 100 } },
    );
    expect(warnings.map((w) => [w.alert!.id, w.alert!.severity, w.alert!.affects])).toEqual([
      ['b', 'info', { lines: ['55'] }],
      ['a', 'unknown', { lines: ['55', '18'] }],
    ]);
  });
});
