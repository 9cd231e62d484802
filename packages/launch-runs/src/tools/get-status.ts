import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LaunchGetStatusInputSchema, LaunchGetStatusOutputSchema } from '@switchyard/contracts/launch-runs';
import type { DomainContext } from '@switchyard/server-kit';
import { registerLaunchTool, type LaunchToolDeps } from './launch-tool.js';

export function registerGetStatusTool(server: McpServer, ctx: DomainContext, deps: LaunchToolDeps): void {
  registerLaunchTool(server, ctx, deps, {
    name: 'launch_get_status',
    title: 'Get a launch run status',
    description:
      'Returns the current state of a launch run: state, section states, open issues of the latest validation, ' +
      'artifacts with sha256, and details (interrupted, busy, fix attempts, last error, PR). Cheap: poll it.',
    input: LaunchGetStatusInputSchema,
    output: LaunchGetStatusOutputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (input) => ({ ok: true as const, status: (await deps.service()).status(input.run_id) }),
  });
}
