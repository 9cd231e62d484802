import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LaunchCancelInputSchema, LaunchCancelOutputSchema } from '@switchyard/contracts/launch-runs';
import type { DomainContext } from '@switchyard/server-kit';
import { registerLaunchTool, type LaunchToolDeps } from './launch-tool.js';

export function registerCancelTool(server: McpServer, ctx: DomainContext, deps: LaunchToolDeps): void {
  registerLaunchTool(server, ctx, deps, {
    name: 'launch_cancel',
    title: 'Cancel a launch run',
    description:
      'Cancels a run: background work stops within a second, the state becomes CANCELLED and the artifacts ' +
      'are kept. Cancelling a cancelled run answers the same again. A finished (DONE/FAILED) run cannot be cancelled.',
    input: LaunchCancelInputSchema,
    output: LaunchCancelOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    handler: async (input) => ({ ok: true as const, ...(await deps.service()).cancel(input.run_id) }),
  });
}
