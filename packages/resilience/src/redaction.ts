import { REDACTION_MARK, redactSecrets } from './secrets.js';

/** Query parameters whose values are credentials (compared case-insensitively). */
export const SECRET_QUERY_PARAMS: readonly string[] = [
  'app_key',
  'app_id',
  'api_key',
  'apikey',
  'key',
  'token',
  'access_token',
  'subscription-key',
  'digitransit-subscription-key',
  'client_secret',
  'password',
  'sig',
  'signature',
];

/** Request and response headers whose values are credentials (compared case-insensitively). */
export const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'digitransit-subscription-key',
  'app_key',
  'x-api-key',
  'cookie',
  'set-cookie',
  'ocp-apim-subscription-key',
];

const SECRET_QUERY_SET = new Set(SECRET_QUERY_PARAMS);
const SECRET_HEADER_SET = new Set(SECRET_HEADERS);
/** Header names that look like credentials even when they are not in the list above. */
const SECRET_LOOKING_HEADER = /(?:^|[-_])(?:token|secret|password|api[-_]?key|auth)(?:$|[-_])/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

const QUERY_NAMES = SECRET_QUERY_PARAMS.map(escapeRegExp).join('|');
const ALL_NAMES = [...new Set([...SECRET_QUERY_PARAMS, ...SECRET_HEADERS])].map(escapeRegExp).join('|');

/** `?app_key=abc`, `&token=abc`, `;sig=abc` (also HTML-escaped `&amp;key=abc`), anywhere in a text. */
const QUERY_PAIR = new RegExp(`([?&;]|^|\\s)(${QUERY_NAMES})=([^&#\\s"'<>\\\\]*)`, 'gim');
/** `"app_key": "abc"` in JSON (a body or a log line that echoes a request). */
const JSON_PAIR = new RegExp(`("(?:${ALL_NAMES})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
/** `Authorization: Bearer abc` on a line of its own (an echoed raw request). */
const HEADER_LINE = new RegExp(
  `^(\\s*(?:${SECRET_HEADERS.map(escapeRegExp).join('|')})\\s*:[ \\t]*)(\\S.*)$`,
  'gim',
);
/** `Bearer abc` / `token abc` credentials wherever they appear. */
const BEARER = /\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/** GitHub token formats (classic and fine-grained). */
const GITHUB_TOKEN = /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g;
/** `https://user:password@host`. */
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^/\s@]+@/gi;

/**
 * Removes credentials from any text: values of secret query parameters in embedded URLs or query strings,
 * secret JSON fields and header lines, bearer tokens, URL passwords and every value passed to
 * `registerSecret`.
 */
export function redactText(text: string): string {
  return redactSecrets(
    text
      .replace(QUERY_PAIR, `$1$2=${REDACTION_MARK}`)
      .replace(JSON_PAIR, `$1"${REDACTION_MARK}"`)
      .replace(HEADER_LINE, `$1${REDACTION_MARK}`)
      .replace(BEARER, `$1 ${REDACTION_MARK}`)
      .replace(GITHUB_TOKEN, REDACTION_MARK)
      .replace(URL_USERINFO, `$1${REDACTION_MARK}@`),
  );
}

/** A URL (or text embedding one) with the values of secret query parameters and registered secrets replaced. */
export function redactUrl(url: string | URL): string {
  return redactText(typeof url === 'string' ? url : url.href);
}

/** True when a header's value is a credential. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADER_SET.has(lower) || SECRET_QUERY_SET.has(lower) || SECRET_LOOKING_HEADER.test(lower);
}

/** Lower-cased header names; credential values replaced, every other value passed through `redactText`. */
export function redactHeaders(
  headers: Headers | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: Iterable<[string, string | string[] | undefined]> = isWeb(headers, 'Headers')
    ? headers.entries()
    : Object.entries(headers);
  for (const [name, raw] of entries) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    const key = name.toLowerCase();
    out[key] = isSecretHeader(key) ? REDACTION_MARK : redactText(value);
  }
  return out;
}

const MAX_DEPTH = 6;

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function redactRecord(
  value: Record<string, unknown>,
  seen: WeakMap<object, unknown>,
  depth: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      isSecretHeader(key) && typeof inner === 'string' ? REDACTION_MARK : redactValue(inner, seen, depth + 1);
  }
  return out;
}

function copyError(error: Error, seen: WeakMap<object, unknown>, depth: number): Error {
  const copy: Error =
    error instanceof DOMException
      ? new DOMException(redactText(error.message), error.name)
      : (Object.create(Object.getPrototypeOf(error) as object) as Error);
  seen.set(error, copy);
  const keys = new Set<string>(Object.getOwnPropertyNames(error));
  keys.add('message');
  keys.add('stack');
  if ('cause' in error) keys.add('cause');
  for (const key of keys) {
    if (error instanceof DOMException && (key === 'message' || key === 'name' || key === 'code')) continue;
    let inner: unknown;
    try {
      inner = (error as unknown as Record<string, unknown>)[key];
    } catch {
      continue;
    }
    if (inner === undefined && !Object.prototype.hasOwnProperty.call(error, key)) continue;
    if (typeof inner === 'function') continue;
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    Object.defineProperty(copy, key, {
      value: redactValue(inner, seen, depth + 1),
      writable: true,
      configurable: true,
      enumerable: descriptor?.enumerable ?? false,
    });
  }
  return copy;
}

/**
 * Whether `value` is a web Headers, Request or Response, by its tag: naming those globals (`instanceof`) loads
 * Node's fetch implementation (about 17 MiB), which a process that never made one does not need.
 */
function isWeb<Name extends 'Headers' | 'Request' | 'Response'>(
  value: unknown,
  name: Name,
): value is InstanceType<(typeof globalThis)[Name]> {
  return Object.prototype.toString.call(value) === `[object ${name}]`;
}

function redactValue(value: unknown, seen: WeakMap<object, unknown>, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (depth > MAX_DEPTH) return '[Truncated]';
  if (value instanceof URL) return redactUrl(value);
  if (value instanceof URLSearchParams) return redactText(`?${value.toString()}`).slice(1);
  if (isWeb(value, 'Headers')) return redactHeaders(value);
  if (isWeb(value, 'Request')) return { method: value.method, url: redactUrl(value.url) };
  if (isWeb(value, 'Response')) {
    return { status: value.status, statusText: value.statusText, url: redactUrl(value.url) };
  }
  if (value instanceof Error) return copyError(value, seen, depth);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(redactValue(item, seen, depth + 1));
    return out;
  }
  if (isPlainObject(value)) return redactRecord(value as Record<string, unknown>, seen, depth);
  // Class instances (sockets, agents, streams) can hold anything; keep only their type.
  return `[${value.constructor?.name ?? 'object'}]`;
}

/**
 * A copy of `error` that is safe to keep as a `cause`, log or serialise: message, stack, cause chain,
 * `errors` of an AggregateError and every own property redacted; requests and responses reduced to
 * method/status and a redacted URL; other class instances reduced to their class name. An Error copy keeps
 * its prototype (so `instanceof` still works). Strings are redacted; other primitives are returned as they are.
 */
export function redactError<E>(error: E): E {
  return redactValue(error, new WeakMap(), 0) as E;
}
