// Helsinki service alerts (OTP `Alert`) as warnings of get_departures and plan_trip: an additive warning code
// and an optional `alert` field, so that both seed contracts (001, 003) stay as they are for their readers.
import { z } from 'zod';
import { InstantSchema, LanguageSchema, WARNING_CODES, WarningSchema } from './common.js';

export const SERVICE_ALERT_WARNING_CODE = 'service-alert';

export const ALERT_SEVERITIES = ['severe', 'warning', 'info', 'unknown'] as const;
export const AlertSeveritySchema = z
  .enum(ALERT_SEVERITIES)
  .describe("OTP's alertSeverityLevel: SEVERE, WARNING, INFO; unknown when the provider gives none.");
export type AlertSeverity = z.infer<typeof AlertSeveritySchema>;

export const AlertLegRefSchema = z
  .object({
    itinerary: z.number().int().nonnegative().describe('Index into `itineraries` (0-based).'),
    leg: z.number().int().nonnegative().describe("Index into that itinerary's `legs` (0-based)."),
  })
  .describe('A leg of the answer an alert concerns.');
export type AlertLegRef = z.infer<typeof AlertLegRefSchema>;

export const ServiceAlertSchema = z
  .object({
    id: z.string().describe("The provider's alert id: one alert appears once per answer."),
    header: z.string().describe('Short text, in `language` (bounded in length).'),
    description: z.string().optional().describe('Longer text, in `language` (bounded in length).'),
    language: LanguageSchema.optional().describe(
      'Language of header and description: the requested one, else fi, sv, en; absent when the provider ' +
        'gave the text untranslated.',
    ),
    severity: AlertSeveritySchema,
    effect: z
      .string()
      .optional()
      .describe("OTP's alertEffect as sent (DETOUR, NO_SERVICE, SIGNIFICANT_DELAYS, STOP_MOVED, ...)."),
    cause: z
      .string()
      .optional()
      .describe("OTP's alertCause as sent (CONSTRUCTION, MAINTENANCE, STRIKE, WEATHER, ...)."),
    validFrom: InstantSchema.optional().describe('Start of validity (ISO 8601, UTC), when given.'),
    validUntil: InstantSchema.optional().describe(
      'End of validity (ISO 8601, UTC); absent: until further notice.',
    ),
    url: z.string().optional().describe('Where to read more, in `language` when translated.'),
    affects: z
      .object({
        stopIds: z.array(z.string()).optional().describe('GTFS ids of the asked stops it concerns.'),
        lines: z.array(z.string()).optional().describe('Lines of the answer it concerns.'),
        legs: z.array(AlertLegRefSchema).optional().describe('Itinerary legs of the answer it concerns.'),
      })
      .describe('What of this answer the alert concerns.'),
  })
  .describe('ServiceAlert: a service alert valid during the time the answer covers.');
export type ServiceAlert = z.infer<typeof ServiceAlertSchema>;

export const ANSWER_WARNING_CODES = [...WARNING_CODES, SERVICE_ALERT_WARNING_CODE] as const;

/** Warning of get_departures and plan_trip: the seed's Warning, plus service alerts. */
export const AnswerWarningSchema = WarningSchema.extend({
  code: z
    .enum(ANSWER_WARNING_CODES)
    .describe(
      'truncated-results: more results existed than `limit`; unsupported-accessibility-flag: the accessibility ' +
        'preference could not be confirmed; preference-unmet: a constraint could not be fully honoured; ' +
        'service-alert: a service alert affects the asked stop, a line or a leg of the answer (see `alert`).',
    ),
  message: z.string().describe('What the warning means for this result (for a service alert, its header).'),
  alert: ServiceAlertSchema.optional().describe('The service alert, with code service-alert only.'),
})
  .superRefine((warning, ctx) => {
    const isAlert = warning.code === SERVICE_ALERT_WARNING_CODE;
    if (isAlert !== (warning.alert !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['alert'],
        message: 'alert is present exactly when code is service-alert',
      });
    }
  })
  .describe('A non-fatal note about the result, or a service alert that concerns it.');
export type AnswerWarning = z.infer<typeof AnswerWarningSchema>;
