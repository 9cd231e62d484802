// Service alerts of the `service-alerts` scenario: OTP `Alert`s as HSL publishes them (GTFS-RT ServiceAlerts:
// texts in fi, sv and en, an effect, a cause, a severity, validity in epoch seconds), recorded in
// fixtures/digitransit/alerts.json with the stop or route each is on: Arkadian puisto (HSL:1040129) moved for
// roadworks; bus 55 on a detour (fi and sv only); tram 9 severely delayed; an expired notice on the I train; a
// bus 18 notice; Arkadian puisto closed from three hours ahead. Validity moves with the request's clock, so the
// same alerts are current, expired or upcoming in every run.
import { readFixture } from '../recorded.js';
import type { FieldFn, Node, ResolverContext } from './context.js';

interface Translation {
  readonly text: string;
  readonly language: string;
}

interface RecordedAlert {
  readonly [field: string]: unknown;
  readonly entities: readonly [{ readonly __typename: 'Stop' | 'Route'; readonly gtfsId: string }];
  readonly alertHeaderTextTranslations: readonly Translation[];
  readonly alertDescriptionTextTranslations: readonly Translation[];
  readonly alertUrlTranslations: readonly Translation[];
  readonly effectiveStartDate: number;
  readonly effectiveEndDate: number;
}

const RECORDED = readFixture<RecordedAlert[]>('digitransit/alerts.json');
const RECORDED_AT_S = Date.parse('2025-06-02T05:15:30Z') / 1000;

/** OTP's `alertHeaderText(language)`: the asked language, else the feed's default (fi), else any. */
function localized(translations: readonly Translation[]): FieldFn | null {
  if (translations.length === 0) return null;
  const text = (language: unknown) => translations.find((t) => t.language === language)?.text;
  return (args) => {
    const asked = typeof args['language'] === 'string' ? args['language'] : undefined;
    return (asked && text(asked)) ?? text('fi') ?? translations[0]!.text;
  };
}

/** The alerts attached to these stops and routes (every one, expired or not, as OTP keeps them). */
export function alertsOn(
  ctx: ResolverContext,
  on: { stops?: readonly string[]; routes?: readonly string[] },
): Node[] {
  if (!ctx.alerts) return [];
  const shift = Math.floor(ctx.now.getTime() / 1000) - RECORDED_AT_S;
  return RECORDED.filter(({ entities: [entity] }) =>
    (entity.__typename === 'Stop' ? on.stops : on.routes)?.includes(entity.gtfsId),
  ).map(({ entities: _attachedTo, ...alert }) => ({
    ...alert,
    alertHeaderText: localized(alert.alertHeaderTextTranslations),
    alertDescriptionText: localized(alert.alertDescriptionTextTranslations),
    alertUrl: localized(alert.alertUrlTranslations),
    effectiveStartDate: alert.effectiveStartDate + shift,
    effectiveEndDate: alert.effectiveEndDate + shift,
  }));
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
