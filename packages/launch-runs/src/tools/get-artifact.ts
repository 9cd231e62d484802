import {
  LaunchGetArtifactInputSchema,
  LaunchGetArtifactOutputSchema,
} from '@switchyard/contracts/launch-runs';
import { artifactPart } from './artifact-parts.js';
import { launchTool } from './spec.js';

export const getArtifactTool = launchTool({
  name: 'launch_get_artifact',
  title: 'Read a launch run artifact',
  description:
    'Returns one artifact of a run by name (as launch_get_status lists it, e.g. drafts/docs/index.md) with ' +
    'its sha256. Text comes as text; binary as base64. An artifact larger than one answer may carry comes ' +
    'in parts (see offset).',
  input: LaunchGetArtifactInputSchema,
  output: LaunchGetArtifactOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (input, call) => {
    const artifact = await call.state.runs.artifact(input.run_id, input.artifact_name);
    const { next_offset, ...part } = artifactPart(artifact, input.offset ?? 0, call.answerBytes, 'tool');
    return { ok: true as const, run_id: input.run_id, artifact: part, next_offset };
  },
});
