import type { Client } from '@modelcontextprotocol/client';
import type { z } from 'zod';

/** A tool answered with its contract's error payload (`isError: true`). */
export class ToolError extends Error {
  constructor(
    readonly tool: string,
    readonly payload: unknown,
  ) {
    super(`${tool} failed: ${JSON.stringify(payload)}`);
    this.name = 'ToolError';
  }
}

/**
 * Calls a tool and checks its structured answer against the contract schema, the way a typed client would
 * (the schemas come from @switchyard/contracts). `envelope`: the contract reports failures inside its own
 * success envelope (planJourney's `success: false`), so an error result is parsed, not thrown.
 */
export async function callTool<S extends z.ZodType>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  schema: S,
  options: { envelope?: boolean } = {},
): Promise<z.output<S>> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true && options.envelope !== true) {
    throw new ToolError(name, result.structuredContent ?? result.content);
  }
  return schema.parse(result.structuredContent);
}
