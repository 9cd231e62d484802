import { LaunchCancelInputSchema, LaunchCancelOutputSchema } from '@switchyard/contracts/launch-runs';
import { launchTool } from './spec.js';

export const cancelTool = launchTool({
  name: 'launch_cancel',
  title: 'Cancel a launch run',
  description:
    'Cancels a run: background work stops within a second, the state becomes CANCELLED and the artifacts ' +
    'are kept. Cancelling a cancelled run answers the same again. A finished (DONE/FAILED) run cannot be cancelled.',
  input: LaunchCancelInputSchema,
  output: LaunchCancelOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (input, call) => ({
    ok: true as const,
    ...(await call.state.runs.cancel(input.run_id)),
  }),
});
