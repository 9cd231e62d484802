import { LaunchListRunsInputSchema, LaunchListRunsOutputSchema } from '@switchyard/contracts/launch-runs';
import { launchTool } from './spec.js';

export const listRunsTool = launchTool({
  name: 'launch_list_runs',
  title: 'List launch runs',
  description:
    'Lists runs newest first, optionally filtered by product_slug and/or state, 50 per page; pass next_cursor ' +
    'as cursor for the next page.',
  input: LaunchListRunsInputSchema,
  output: LaunchListRunsOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (input, call) => ({
    ok: true as const,
    ...(await (await call.state.runs()).list(call.principal, input.filter ?? {}, input.cursor, input.limit)),
  }),
});
