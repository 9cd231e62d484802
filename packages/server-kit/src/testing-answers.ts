import type { CallToolResult, Client } from '@modelcontextprotocol/client';

/** One tool call's answer as tests read it. */
export interface ToolAnswer {
  isError: boolean;
  /** The structured content (`{}` when the answer has none). */
  structured: Record<string, unknown>;
  /** The first text block (`''` when there is none). */
  text: string;
  raw: CallToolResult;
}

/** Calls a tool through a real SDK client: the one way tests call tools (`options`: the SDK's, e.g. `timeout`). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  options?: Parameters<Client['callTool']>[1],
): Promise<ToolAnswer> {
  const raw = (await client.callTool({ name, arguments: args }, options)) as CallToolResult;
  const first = raw.content[0];
  return {
    isError: raw.isError === true,
    structured: (raw.structuredContent ?? {}) as Record<string, unknown>,
    text: first?.type === 'text' ? first.text : '',
    raw,
  };
}

/**
 * What the contracts' error payloads share: `{ error: { code, message, ... } }` (transit's HSL tools,
 * journey, launch-runs; launch adds `ok: false` beside `error`).
 */
export interface ContractError {
  code: string;
  message: string;
  [field: string]: unknown;
}

/** The error object a payload type declares (launch's `{ error?: {...} }`), else ContractError. */
type ErrorIn<P> = P extends { error?: infer E }
  ? NonNullable<E> extends ContractError
    ? NonNullable<E>
    : ContractError
  : ContractError;

/**
 * The `error` of an error payload (an answer's structured content, or the answer itself), checking that it is
 * one (an `error` object, and `ok: false` where the payload has `ok`) and, with `code`, that it carries that
 * code. Throws a plain Error otherwise (this subpath does not depend on a test runner).
 */
export function errorOf<P extends Record<string, unknown>>(from: P | ToolAnswer, code?: string): ErrorIn<P> {
  const payload: Record<string, unknown> = isToolAnswer(from) ? from.structured : from;
  const error = payload.error as ContractError | undefined;
  if (typeof error !== 'object' || error === null || (payload.ok !== undefined && payload.ok !== false)) {
    throw new Error(`expected error ${code ?? ''}, got ${JSON.stringify(payload).slice(0, 500)}`);
  }
  if (code !== undefined && error.code !== code) {
    throw new Error(`expected error ${code}, got ${error.code}: ${error.message}`);
  }
  return error as ErrorIn<P>;
}

function isToolAnswer(value: Record<string, unknown> | ToolAnswer): value is ToolAnswer {
  return 'raw' in value && 'structured' in value;
}

/**
 * The `error` of an error answer as the contract's error payload schema (`HslErrorPayloadSchema`,
 * `JourneyErrorPayloadSchema`, ...) parses it: throws unless the answer is an error and fits the schema.
 */
export function contractErrorOf<E>(answer: ToolAnswer, schema: { parse(payload: unknown): { error: E } }): E {
  if (!answer.isError) {
    throw new Error(`expected an error, got ${JSON.stringify(answer.structured).slice(0, 500)}`);
  }
  return schema.parse(answer.structured).error;
}

/** The MCP Apps views a tools/list names: tool name -> its `_meta.ui.resourceUri`, for the tools that have one. */
export function viewsNamedBy(
  tools: readonly { name: string; _meta?: Record<string, unknown> }[],
): Record<string, string> {
  return Object.fromEntries(
    tools.flatMap((tool) => {
      const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
      return uri === undefined ? [] : [[tool.name, uri]];
    }),
  );
}
