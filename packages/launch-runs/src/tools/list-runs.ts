import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LaunchListRunsInputSchema, LaunchListRunsOutputSchema } from '@switchyard/contracts/launch-runs';
import type { DomainContext } from '@switchyard/server-kit';
import { registerLaunchTool, type LaunchToolDeps } from './launch-tool.js';

export function registerListRunsTool(server: McpServer, ctx: DomainContext, deps: LaunchToolDeps): void {
  registerLaunchTool(server, ctx, deps, {
    name: 'launch_list_runs',
    title: 'List launch runs',
    description:
      'Lists runs newest first, optionally filtered by product_slug and/or state, 50 per page; pass next_cursor ' +
      'as cursor for the next page.',
    input: LaunchListRunsInputSchema,
    output: LaunchListRunsOutputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (input) => ({
      ok: true as const,
      ...(await deps.service()).list(input.filter ?? {}, input.cursor, input.limit),
    }),
  });
}
