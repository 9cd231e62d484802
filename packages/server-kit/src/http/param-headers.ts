import type { IncomingHttpHeaders } from 'node:http';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog.js';
import { argumentPath, type HeaderMirror } from '../header-mirrors.js';

/** SEP-2243's HeaderMismatch: the headers and the body disagree (answered with HTTP 400). */
export const JSONRPC_HEADER_MISMATCH = -32020;

/** A `tools/call` refused for its `Mcp-Param-*` headers: the JSON-RPC id to answer and what to fix. */
export interface ParamHeaderRefusal {
  id: string | number | null;
  message: string;
}

const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';
/** Canonical Base64: the standard alphabet, padded to whole quanta (`SGVsbG8?` is refused, not guessed at). */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What a plain header value may hold (RFC 9110 field values): visible ASCII, space and tab. */
const PLAIN_VALUE = /^[\x20-\x7e\t]*$/;
/** An integer header compared as a number (`42.0` is `42`), as the specification recommends. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text a header value stands for: plain, or its Base64 sentinel form decoded; undefined when malformed. */
function decoded(value: string): string | undefined {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX))) {
    return PLAIN_VALUE.test(value) ? value : undefined;
  }
  const base64 = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length);
  if (!CANONICAL_BASE64.test(base64)) return undefined;
  try {
    return utf8.decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

/** An argument as the specification writes it into a header; undefined for one no header carries. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function matches(mirror: HeaderMirror, text: string, argument: unknown, argumentText: string): boolean {
  if (mirror.type === 'integer' && typeof argument === 'number' && DECIMAL.test(text)) {
    return Number(text) === argument;
  }
  return text === argumentText;
}

const HOW_TO_SEND =
  "the argument's value as it is, or as =?base64?<Base64 of its UTF-8>?= when it is not plain visible ASCII " +
  'or has whitespace at either end';

/** What is wrong with one mirrored parameter's header, or undefined when it agrees with the body. */
function mirrorProblem(
  mirror: HeaderMirror,
  args: unknown,
  headers: IncomingHttpHeaders,
): string | undefined {
  const argument = valueAt(args, mirror.path);
  // A parameter left out (or null) has no header to expect; a header sent anyway is ignored.
  const argumentText = argument === null ? undefined : headerText(argument);
  if (argumentText === undefined) return undefined;
  const where = argumentPath(mirror.path);
  const raw = headers[mirror.header.toLowerCase()];
  if (raw === undefined) {
    return `${where} is set but the ${mirror.header} header is missing: send ${mirror.header} with ${HOW_TO_SEND}`;
  }
  // Node's parser has dropped the whitespace around the value (RFC 9110's OWS), which is not part of it.
  const text = decoded(String(raw));
  if (text === undefined) {
    return (
      `the ${mirror.header} header holds characters a header value may not, or a =?base64?...?= value that is ` +
      `not canonical Base64 of UTF-8 text: send ${HOW_TO_SEND}`
    );
  }
  if (matches(mirror, text, argument, argumentText)) return undefined;
  return `the ${mirror.header} header does not match ${where}: send ${HOW_TO_SEND}`;
}

interface ToolsCallLike {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; _meta?: Record<string, unknown> };
}

/**
 * SEP-2243's check of the `Mcp-Param-*` headers of a 2026-07-28 `tools/call`: for each parameter the tool's
 * listed input mirrors (`x-mcp-header`), a value in the arguments needs the header, which (Base64 sentinel
 * decoded) must equal it. The SDK's HTTP entry checks the standard headers
 * (`Mcp-Method`, `Mcp-Name`) but these only for its high-level server, which server-kit does not use. A 2025-era
 * request (no `_meta` envelope; batches are 2025-only) mirrors nothing and is not checked.
 */
export class ParamHeaders {
  private readonly mirrors = new Map<string, readonly HeaderMirror[]>();

  constructor(catalog: Catalog) {
    for (const [name, tool] of catalog.tools)
      if (tool.headers.length > 0) this.mirrors.set(name, tool.headers);
  }

  /** Every mirrored header name, for the CORS preflight's allowed headers. */
  get headerNames(): string[] {
    return [...new Set([...this.mirrors.values()].flat().map((mirror) => mirror.header))];
  }

  /** The refusal of `body` (one JSON-RPC message, or a batch) for its headers, or undefined when they agree. */
  refusal(body: unknown, headers: IncomingHttpHeaders): ParamHeaderRefusal | undefined {
    if (this.mirrors.size === 0 || typeof body !== 'object' || body === null || Array.isArray(body)) {
      return undefined;
    }
    const { id, method, params } = body as ToolsCallLike;
    if (method !== 'tools/call' || typeof params?._meta?.[PROTOCOL_VERSION_META_KEY] !== 'string')
      return undefined;
    const mirrors = typeof params.name === 'string' ? this.mirrors.get(params.name) : undefined;
    for (const mirror of mirrors ?? []) {
      const problem = mirrorProblem(mirror, params.arguments, headers);
      if (problem !== undefined) {
        return {
          id: typeof id === 'string' || typeof id === 'number' ? id : null,
          message: `Header mismatch: ${problem}`,
        };
      }
    }
    return undefined;
  }
}
