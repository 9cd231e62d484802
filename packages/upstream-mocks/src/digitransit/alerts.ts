// Service alerts of the `service-alerts` scenario, shaped as OTP's `Alert` (GTFS-RT ServiceAlerts as HSL
// publishes them: texts in fi, sv and en, an effect, a cause, a severity and validity in epoch seconds).
// Validity is relative to the request's clock, so the same alerts are current, expired or upcoming in every run.
import { relayId } from './context.js';
import type { FieldFn, ResolverContext } from './context.js';
import type { Node } from './nodes.js';

type Language = 'fi' | 'sv' | 'en';
type Texts = Partial<Record<Language, string>>;

export interface AlertSpec {
  /** The GTFS-RT entity id (OTP's relay id is built from it). */
  readonly entityId: string;
  /** What it is attached to: a stop or a route (GTFS id). */
  readonly on: { readonly stop: string } | { readonly route: string };
  readonly header: Texts;
  readonly description: Texts;
  readonly url?: Texts;
  readonly severity: 'INFO' | 'WARNING' | 'SEVERE' | 'UNKNOWN_SEVERITY';
  readonly effect: string;
  readonly cause: string;
  /** Validity, in minutes from now (null: open-ended). */
  readonly fromMinutes: number | null;
  readonly untilMinutes: number | null;
}

/**
 * The alerts of the `service-alerts` scenario: Arkadian puisto (HSL:1040129) moved for roadworks; bus 55 on a
 * detour (fi and sv only); tram 9 severely delayed (fi, sv, en); an expired notice on the I train; a bus 18
 * notice; Arkadian puisto closed from three hours ahead.
 */
export const HSL_ALERTS: readonly AlertSpec[] = [
  {
    entityId: '6f2c1e1a-stop-1040129',
    on: { stop: 'HSL:1040129' },
    header: {
      fi: 'Pysäkki Arkadian puisto (H1232) siirtyy',
      sv: 'Hållplatsen Arkadiaparken (H1232) flyttas',
      en: 'Stop Arkadian puisto (H1232) moved',
    },
    description: {
      fi: 'Katutöiden vuoksi pysäkki siirtyy noin 50 metriä Mannerheimintien suuntaan.',
      sv: 'På grund av gatuarbeten flyttas hållplatsen cirka 50 meter mot Mannerheimvägen.',
      en: 'Due to roadworks, the stop is moved about 50 metres towards Mannerheimintie.',
    },
    url: {
      fi: 'https://www.hsl.fi/matkustaminen/liikennetiedotteet',
      en: 'https://www.hsl.fi/en/travelling/traffic-bulletins',
    },
    severity: 'WARNING',
    effect: 'STOP_MOVED',
    cause: 'CONSTRUCTION',
    fromMinutes: -24 * 60,
    untilMinutes: 14 * 24 * 60,
  },
  {
    entityId: '8a41d0c2-route-1055',
    on: { route: 'HSL:1055' },
    header: { fi: 'Linja 55: poikkeusreitti Kampissa', sv: 'Linje 55: undantagsrutt i Kampen' },
    description: {
      fi: 'Linja 55 kulkee poikkeusreittiä Fredrikinkadun kautta. Pysäkit Simonkatu ja Kamppi eivät ole käytössä.',
      sv: 'Linje 55 kör en undantagsrutt via Fredriksgatan. Hållplatserna Simonsgatan och Kampen används inte.',
    },
    severity: 'WARNING',
    effect: 'DETOUR',
    cause: 'MAINTENANCE',
    fromMinutes: -120,
    untilMinutes: 6 * 60,
  },
  {
    entityId: 'c39e7b55-route-1009',
    on: { route: 'HSL:1009' },
    header: {
      fi: 'Raitiolinja 9: merkittäviä viivästyksiä',
      sv: 'Spårvägslinje 9: betydande förseningar',
      en: 'Tram 9: significant delays',
    },
    description: {
      fi: 'Raitiolinjalla 9 on merkittäviä viivästyksiä teknisen vian vuoksi.',
      sv: 'Spårvägslinje 9 har betydande förseningar på grund av ett tekniskt fel.',
      en: 'Tram 9 is significantly delayed because of a technical problem.',
    },
    severity: 'SEVERE',
    effect: 'SIGNIFICANT_DELAYS',
    cause: 'TECHNICAL_PROBLEM',
    fromMinutes: -30,
    untilMinutes: 120,
  },
  {
    entityId: '1d7f09e3-route-3001I',
    on: { route: 'HSL:3001I' },
    header: {
      fi: 'I-juna: ratatyöt päättyneet',
      sv: 'I-tåget: banarbetena har avslutats',
      en: 'I train: track works over',
    },
    description: {
      fi: 'Ratatyöt on saatu päätökseen.',
      sv: 'Banarbetena är klara.',
      en: 'The track works are over.',
    },
    severity: 'INFO',
    effect: 'MODIFIED_SERVICE',
    cause: 'MAINTENANCE',
    fromMinutes: -26 * 60,
    untilMinutes: -60,
  },
  {
    entityId: '5b0a6c7d-route-1018',
    on: { route: 'HSL:1018' },
    header: { fi: 'Linja 18: mielenosoitus', sv: 'Linje 18: demonstration', en: 'Bus 18: demonstration' },
    description: {
      fi: 'Linja 18 voi viivästyä mielenosoituksen vuoksi.',
      sv: 'Linje 18 kan försenas på grund av en demonstration.',
      en: 'Bus 18 may be delayed by a demonstration.',
    },
    severity: 'INFO',
    effect: 'OTHER_EFFECT',
    cause: 'DEMONSTRATION',
    fromMinutes: -10,
    untilMinutes: 240,
  },
  {
    entityId: '9e6b2f40-stop-1040129-evening',
    on: { stop: 'HSL:1040129' },
    header: {
      fi: 'Pysäkki Arkadian puisto poissa käytöstä illalla',
      sv: 'Hållplatsen Arkadiaparken ur bruk i kväll',
      en: 'Stop Arkadian puisto closed this evening',
    },
    description: {
      fi: 'Pysäkki ei ole käytössä tapahtuman vuoksi.',
      sv: 'Hållplatsen används inte på grund av ett evenemang.',
      en: 'The stop is not served because of an event.',
    },
    severity: 'WARNING',
    effect: 'NO_SERVICE',
    cause: 'OTHER_CAUSE',
    fromMinutes: 180,
    untilMinutes: 300,
  },
];

const LANGUAGES: readonly Language[] = ['fi', 'sv', 'en'];

function translations(texts: Texts): Node[] {
  return LANGUAGES.filter((language) => texts[language] !== undefined).map((language) => ({
    text: texts[language],
    language,
  }));
}

/** OTP's `alertHeaderText(language)`: the asked language, else the feed's default (fi), else any. */
function localized(texts: Texts): FieldFn {
  return (args) => {
    const asked = typeof args['language'] === 'string' ? (args['language'] as Language) : undefined;
    return (asked && texts[asked]) ?? texts.fi ?? Object.values(texts)[0] ?? null;
  };
}

/** Java's String.hashCode, as OTP's alertHash is an int. */
function javaHash(value: string): number {
  let hash = 0;
  for (const char of value) hash = (Math.imul(31, hash) + char.charCodeAt(0)) | 0;
  return hash;
}

function epochSeconds(now: Date, minutes: number | null): number | null {
  return minutes === null ? null : Math.floor(now.getTime() / 1000) + minutes * 60;
}

function alertNode(spec: AlertSpec, now: Date): Node {
  return {
    __typename: 'Alert',
    id: relayId('Alert', `HSL:${spec.entityId}`),
    alertHash: javaHash(spec.entityId),
    feed: 'HSL',
    alertHeaderText: localized(spec.header),
    alertHeaderTextTranslations: translations(spec.header),
    alertDescriptionText: localized(spec.description),
    alertDescriptionTextTranslations: translations(spec.description),
    alertUrl: spec.url ? localized(spec.url) : null,
    alertUrlTranslations: spec.url ? translations(spec.url) : [],
    alertEffect: spec.effect,
    alertCause: spec.cause,
    alertSeverityLevel: spec.severity,
    effectiveStartDate: epochSeconds(now, spec.fromMinutes),
    effectiveEndDate: epochSeconds(now, spec.untilMinutes),
  };
}

/** The alerts attached to these stops and routes (every one, expired or not, as OTP keeps them). */
export function alertsOn(
  ctx: ResolverContext,
  on: { stops?: readonly string[]; routes?: readonly string[] },
): Node[] {
  if (!ctx.alerts) return [];
  return HSL_ALERTS.filter((spec) =>
    'stop' in spec.on ? (on.stops ?? []).includes(spec.on.stop) : (on.routes ?? []).includes(spec.on.route),
  ).map((spec) => alertNode(spec, ctx.now));
}

/**
 * `Stop.alerts(types)` / `Route.alerts(types)`: without `types` OTP answers the entity's own alerts (STOP,
 * ROUTE); `ROUTES` on a stop adds those of the routes that serve it.
 */
export function entityAlerts(own: { stop: string; routes: readonly string[] } | { route: string }): FieldFn {
  return (args, ctx) => {
    const types = Array.isArray(args['types']) ? (args['types'] as string[]) : undefined;
    if ('route' in own)
      return types && !types.includes('ROUTE') ? [] : alertsOn(ctx, { routes: [own.route] });
    const stops = !types || types.includes('STOP') ? [own.stop] : [];
    const routes = types?.includes('ROUTES') ? own.routes : [];
    return alertsOn(ctx, { stops, routes });
  };
}
