import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LaunchOpenPrInputSchema, LaunchOpenPrOutputSchema } from '@switchyard/contracts/launch-runs';
import type { DomainContext } from '@switchyard/server-kit';
import { registerLaunchTool, type LaunchToolDeps } from './launch-tool.js';

export function registerOpenPrTool(server: McpServer, ctx: DomainContext, deps: LaunchToolDeps): void {
  registerLaunchTool(server, ctx, deps, {
    name: 'launch_open_pr',
    title: 'Open the launch pull request',
    description:
      'Commits the run worktree on branch launch/<run_id>/<product_slug>, pushes it and opens the pull request ' +
      'through the configured commit service (W9); the run becomes DONE. Needs READY_FOR_PR with a passing ' +
      'report. Calling it again returns the same PR (never a second one).',
    input: LaunchOpenPrInputSchema,
    output: LaunchOpenPrOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    handler: async (input, call) => ({
      ok: true as const,
      ...(await (await deps.service()).openPr(input.run_id, { signal: call.signal })),
    }),
  });
}
