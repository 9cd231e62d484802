import {
  LaunchSubmitDraftInputSchema,
  LaunchSubmitDraftOutputSchema,
} from '@switchyard/contracts/launch-runs';
import { whileRequestOpen } from './progress.js';
import { launchTool } from './spec.js';

export const submitDraftTool = launchTool({
  name: 'launch_submit_draft',
  title: 'Submit a page written by your model',
  description:
    'Submits the Markdown body of one page a drafting "model" run waits for (status waiting_for_drafts), ' +
    'written from writing_brief.json. Refused: nothing is stored, issues say what to revise. After the ' +
    'last page the run links and validates.',
  input: LaunchSubmitDraftInputSchema,
  output: LaunchSubmitDraftOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (input, call) => {
    const { run_id, page, markdown } = input;
    const outcome = await call.state.runs.submitDraft(run_id, { page, markdown }, whileRequestOpen(call));
    // A draft the tool submits is never stale: it is verified, or refused by an error.
    return { ok: true as const, run_id, page, ...outcome! };
  },
});
