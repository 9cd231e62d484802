// The `service-alerts` scenario: OTP `Alert`s on stops, routes and legs, validated and executed like any query.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDigitransitMock } from '../src/index.js';
import type { DigitransitMock } from '../src/index.js';
import { arr, FIXED_NOW, fixedClock, obj, postGraphQL } from './helpers.js';

let dt: DigitransitMock;

beforeEach(async () => {
  dt = await startDigitransitMock({ now: fixedClock });
});
afterEach(async () => {
  await dt.close();
});

const ALERT_FIELDS = `
  id alertHash alertHeaderText alertDescriptionText(language: "sv") alertSeverityLevel alertEffect alertCause
  effectiveStartDate effectiveEndDate
  alertHeaderTextTranslations { text language }
`;

const STOP_ALERTS = `query($id: String!) {
  stop(id: $id) {
    alerts { ${ALERT_FIELDS} }
    routesAlerts: alerts(types: [ROUTES]) { alertHeaderText }
    routes { gtfsId alerts { ${ALERT_FIELDS} } }
  }
}`;

const LEG_ALERTS = `query($from: PlanLabeledLocationInput!, $to: PlanLabeledLocationInput!) {
  planConnection(origin: $from, destination: $to, first: 4) {
    edges { node { legs { mode route { gtfsId } alerts { id alertHeaderText } } } }
  }
}`;

const nowSeconds = Math.floor(FIXED_NOW.getTime() / 1000);

describe('Digitransit mock: service alerts', () => {
  it('answers no alerts outside the service-alerts scenario', async () => {
    const { body } = await postGraphQL(dt, STOP_ALERTS, { id: 'HSL:1040129' });
    expect(body.errors).toBeUndefined();
    const stop = obj(obj(body.data)['stop']);
    expect(stop['alerts']).toEqual([]);
    expect(arr(stop['routes']).flatMap((route) => arr(obj(route)['alerts']))).toEqual([]);
  });

  it("attaches the stop's alert to the stop and each route's alerts to the route, with translations", async () => {
    dt.scenario('service-alerts');
    const { body } = await postGraphQL(dt, STOP_ALERTS, { id: 'HSL:1040129' });
    expect(body.errors).toBeUndefined();
    const stop = obj(obj(body.data)['stop']);
    const [stopAlert, eveningClosure] = arr(stop['alerts']).map(obj);
    expect(stopAlert).toMatchObject({
      alertHeaderText: 'Pysäkki Arkadian puisto (H1232) siirtyy',
      alertDescriptionText: expect.stringContaining('På grund av gatuarbeten'),
      alertSeverityLevel: 'WARNING',
      alertEffect: 'STOP_MOVED',
      alertCause: 'CONSTRUCTION',
      effectiveStartDate: nowSeconds - 86_400,
    });
    expect(eveningClosure?.['effectiveStartDate']).toBe(nowSeconds + 3 * 3600);
    expect(typeof stopAlert?.['alertHash']).toBe('number');
    expect(Buffer.from(String(stopAlert?.['id']), 'base64').toString()).toMatch(/^Alert:HSL:/);
    expect(arr(stopAlert?.['alertHeaderTextTranslations']).map((t) => obj(t)['language'])).toEqual([
      'fi',
      'sv',
      'en',
    ]);
    const byRoute: Record<string, Record<string, unknown>[]> = Object.fromEntries(
      arr(stop['routes']).map((route) => [obj(route)['gtfsId'], arr(obj(route)['alerts']).map(obj)]),
    );
    // Bus 55: a detour in fi and sv only; bus 18: a notice.
    expect(byRoute['HSL:1055']?.map((a) => a['alertEffect'])).toEqual(['DETOUR']);
    expect(byRoute['HSL:1055']?.[0]?.['alertHeaderTextTranslations']).toHaveLength(2);
    expect(byRoute['HSL:1018']?.[0]?.['alertCause']).toBe('DEMONSTRATION');
    // types: [ROUTES] on a stop: the alerts of the routes that serve it.
    expect(arr(stop['routesAlerts'])).toHaveLength(2);
  });

  it('gives each leg the alerts of its route and stops, an expired one included (OTP keeps them)', async () => {
    dt.scenario('service-alerts');
    const place = (lat: number, lon: number) => ({
      location: { coordinate: { latitude: lat, longitude: lon } },
    });
    const { body } = await postGraphQL(dt, LEG_ALERTS, {
      from: place(60.1699, 24.9384),
      to: place(60.1989, 24.9335),
    });
    expect(body.errors).toBeUndefined();
    const legs = arr(obj(obj(body.data)['planConnection'])['edges']).flatMap((edge) =>
      arr(obj(obj(edge)['node'])['legs']).map(obj),
    );
    const headersOf = (routeId: string) =>
      legs
        .filter((leg) => leg['route'] !== null && obj(leg['route'])['gtfsId'] === routeId)
        .flatMap((leg) => arr(leg['alerts']).map((alert) => obj(alert)['alertHeaderText']));
    expect(headersOf('HSL:1009')).toContain('Raitiolinja 9: merkittäviä viivästyksiä');
    expect(headersOf('HSL:3001I')).toContain('I-juna: ratatyöt päättyneet');
    // The bus 55 leg boards at Arkadian puisto: its route's and its stop's alerts.
    expect(new Set(headersOf('HSL:1055'))).toEqual(
      new Set([
        'Linja 55: poikkeusreitti Kampissa',
        'Pysäkki Arkadian puisto (H1232) siirtyy',
        'Pysäkki Arkadian puisto poissa käytöstä illalla',
      ]),
    );
    expect(legs.filter((leg) => leg['mode'] === 'WALK').flatMap((leg) => arr(leg['alerts']))).toEqual([]);
  });
});
