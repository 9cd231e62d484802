// OTP service alerts (`Alert` on stops, routes, trips and legs) as `service-alert` warnings: one per alert id,
// only while valid during the time the answer covers, in the caller's language (requested, fi, sv, en, then the
// untranslated text), most severe first, bounded in number and text length.
import {
  SERVICE_ALERT_WARNING_CODE,
  type AlertLegRef,
  type AlertSeverity,
  type AnswerWarning,
  type Language,
  type ServiceAlert,
} from '@switchyard/contracts/transit';
import { formatUtc } from '../time.js';
import { lenientItems, lenientRecord, readerField, type ReadValue } from '../wire-record.js';
import { nonEmpty, readNumber, readText } from '../wire.js';

/** HSL_ALERTS_MAX and HSL_ALERT_TEXT_MAX_CHARS. */
export interface AlertLimits {
  /** Alerts per answer at most; 0: none (and none are asked for). */
  max: number;
  /** Characters of a header, description or URL at most. */
  textMaxChars: number;
}

const readTranslations = lenientItems(lenientRecord({ text: readText, language: readText }));
type TranslatedString = ReadValue<typeof readTranslations>[number];

/** Epoch seconds 1970..2100; anything else (OTP sends none for "until further notice") is no bound. */
function readEpochSeconds(value: unknown): number | undefined {
  const seconds = readNumber(value);
  return seconds !== undefined && seconds >= 0 && seconds <= 4_102_444_800 ? seconds : undefined;
}

/** One `Alert` as ALERT_FIELDS selects it, read from a field table (see ../wire-record.ts). */
const readAlert = lenientRecord({
  id: readText,
  alertHash: readNumber,
  alertHeaderText: readText,
  alertDescriptionText: readText,
  alertUrl: readText,
  alertHeaderTextTranslations: readTranslations,
  alertDescriptionTextTranslations: readTranslations,
  alertUrlTranslations: readTranslations,
  alertSeverityLevel: readText,
  alertEffect: readText,
  alertCause: readText,
  effectiveStartDate: readEpochSeconds,
  effectiveEndDate: readEpochSeconds,
});
export type OtpAlert = ReadValue<typeof readAlert>;

/** The `alerts` list of a stop, route, trip or leg: unreadable alerts are left out. */
export const readAlerts = lenientItems(readAlert);

/** readAlerts as a field of a zod object. */
export const OtpAlertsSchema = readerField(readAlerts);

/** An instant range, epoch milliseconds, both ends included. */
export interface TimeWindow {
  startMs: number;
  endMs: number;
}

/** Alerts found on one thing the answer covers, what that thing is, and when the answer needs it. */
export interface AlertSource {
  alerts: readonly OtpAlert[];
  affects: { stopId: string } | { line: string } | { leg: AlertLegRef };
  window: TimeWindow;
}

const SEVERITIES: Readonly<Record<string, AlertSeverity>> = {
  SEVERE: 'severe',
  WARNING: 'warning',
  INFO: 'info',
};
const SEVERITY_RANK: Readonly<Record<AlertSeverity, number>> = { severe: 0, warning: 1, info: 2, unknown: 3 };

/** Seed 003's fallback chain: the requested language, then fi, sv, en. */
export function languageChain(requested: Language): Language[] {
  return [...new Set<Language>([requested, 'fi', 'sv', 'en'])];
}

/** `fi`, `FI`, `fi-FI` -> `fi`; undefined for no language. */
function baseLanguage(tag: string | undefined): string | undefined {
  return nonEmpty(tag)?.split(/[-_]/)[0]?.toLowerCase();
}

interface Picked {
  text: string;
  language?: Language;
}

/**
 * The text in the first language of `chain` that has one; else a translation without a language tag (GTFS-RT's
 * untranslated entry); else `untranslated` (OTP's own pick); undefined when there is no text at all.
 */
export function pickText(
  translations: readonly TranslatedString[],
  untranslated: string | undefined,
  chain: readonly Language[],
): Picked | undefined {
  for (const language of chain) {
    const match = translations.find((t) => baseLanguage(t.language) === language && nonEmpty(t.text));
    if (match?.text !== undefined) return { text: match.text.trim(), language };
  }
  const untagged = translations.find((t) => baseLanguage(t.language) === undefined && nonEmpty(t.text));
  const text = nonEmpty(untagged?.text) ?? nonEmpty(untranslated);
  return text === undefined ? undefined : { text };
}

/** At most `max` characters (code points, never half a surrogate pair), a cut text ending in "…". */
export function bounded(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function validDuring(alert: OtpAlert, window: TimeWindow): boolean {
  const startMs = alert.effectiveStartDate === undefined ? undefined : alert.effectiveStartDate * 1000;
  const endMs = alert.effectiveEndDate === undefined ? undefined : alert.effectiveEndDate * 1000;
  return (
    (startMs === undefined || startMs <= window.endMs) && (endMs === undefined || endMs >= window.startMs)
  );
}

function alertId(alert: OtpAlert, header: string): string {
  return (
    nonEmpty(alert.id) ?? (alert.alertHash === undefined ? `header:${header}` : `hash:${alert.alertHash}`)
  );
}

/** One alert in the caller's language, text bounded; undefined when it has no text to show. */
function toServiceAlert(
  alert: OtpAlert,
  chain: readonly Language[],
  maxChars: number,
): ServiceAlert | undefined {
  const header = pickText(alert.alertHeaderTextTranslations, alert.alertHeaderText, chain);
  // The description in the header's language first, so that the two read as one text.
  const descriptionChain = header?.language === undefined ? chain : [header.language, ...chain];
  const description = pickText(
    alert.alertDescriptionTextTranslations,
    alert.alertDescriptionText,
    descriptionChain,
  );
  const url = pickText(alert.alertUrlTranslations, alert.alertUrl, descriptionChain);
  const title = header ?? description;
  if (title === undefined) return undefined;
  const headerText = bounded(title.text, maxChars);
  const effect = nonEmpty(alert.alertEffect);
  const cause = nonEmpty(alert.alertCause);
  return {
    id: alertId(alert, title.text),
    header: headerText,
    description:
      header !== undefined && description !== undefined ? bounded(description.text, maxChars) : undefined,
    language: title.language,
    severity: SEVERITIES[alert.alertSeverityLevel?.toUpperCase() ?? ''] ?? 'unknown',
    effect,
    cause,
    validFrom:
      alert.effectiveStartDate === undefined ? undefined : formatUtc(alert.effectiveStartDate * 1000),
    validUntil: alert.effectiveEndDate === undefined ? undefined : formatUtc(alert.effectiveEndDate * 1000),
    url: url === undefined ? undefined : bounded(url.text, maxChars),
    affects: {},
  };
}

function addAffected(alert: ServiceAlert, affects: AlertSource['affects']): void {
  const { affects: into } = alert;
  if ('stopId' in affects) {
    if (!into.stopIds?.includes(affects.stopId)) into.stopIds = [...(into.stopIds ?? []), affects.stopId];
  } else if ('line' in affects) {
    if (!into.lines?.includes(affects.line)) into.lines = [...(into.lines ?? []), affects.line];
  } else {
    into.legs = [...(into.legs ?? []), affects.leg];
  }
}

/**
 * The `service-alert` warnings of one answer: each alert valid during its source's window, once per id (what
 * it affects merged), most severe first (then in the order found), at most `limits.max`.
 */
export function serviceAlertWarnings(
  sources: readonly AlertSource[],
  options: { language: Language; limits: AlertLimits },
): AnswerWarning[] {
  const { limits } = options;
  if (limits.max === 0) return [];
  const chain = languageChain(options.language);
  const byId = new Map<string, ServiceAlert>();
  for (const source of sources) {
    for (const otpAlert of source.alerts) {
      if (!validDuring(otpAlert, source.window)) continue;
      const mapped = toServiceAlert(otpAlert, chain, limits.textMaxChars);
      if (mapped === undefined) continue;
      const alert = byId.get(mapped.id) ?? mapped;
      byId.set(alert.id, alert);
      addAffected(alert, source.affects);
    }
  }
  return [...byId.values()]
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity])
    .slice(0, limits.max)
    .map((alert) => ({ code: SERVICE_ALERT_WARNING_CODE, message: alert.header, alert }));
}
