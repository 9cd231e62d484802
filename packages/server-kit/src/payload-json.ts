import { randomUUID } from 'node:crypto';

/**
 * A tool answer carries its payload twice: as structured content and as its JSON text mirror. The mirror is
 * `JSON.stringify(payload)` already, so the wire line of the answer splices that text in where the structured
 * content goes instead of serializing the payload a second time (the same bytes: JSON.stringify of an unchanged
 * plain object is deterministic).
 */
const payloadTexts = new WeakMap<object, string>();

/** Stands for the structured content while the rest of the message is serialized; no payload can hold it. */
const STAND_IN = `switchyard-payload-${randomUUID()}`;
const STAND_IN_MEMBER = `"structuredContent":${JSON.stringify(STAND_IN)}`;

/** `JSON.stringify(payload)` for a tool answer's text mirror, remembered for its wire line (`payload` is final). */
export function payloadJson(payload: object): string {
  const json = JSON.stringify(payload);
  payloadTexts.set(payload, json);
  return json;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** `JSON.stringify(message)`, with a tool answer's remembered payload text reused rather than rebuilt. */
export function messageJson(message: object): string {
  const result = (message as { result?: unknown }).result;
  const payload = isObject(result) ? result.structuredContent : undefined;
  const payloadText = isObject(payload) ? payloadTexts.get(payload) : undefined;
  if (payloadText === undefined || !isObject(result)) return JSON.stringify(message);
  const outline = JSON.stringify({ ...message, result: { ...result, structuredContent: STAND_IN } });
  // Inside a string every quote is escaped, so the unescaped member is the structured content's own place.
  const at = outline.indexOf(STAND_IN_MEMBER);
  if (at === -1) return JSON.stringify(message);
  const valueAt = at + STAND_IN_MEMBER.length - STAND_IN.length - 2;
  return outline.slice(0, valueAt) + payloadText + outline.slice(at + STAND_IN_MEMBER.length);
}
