import {
  LaunchGetArtifactInputSchema,
  LaunchGetArtifactOutputSchema,
} from '@switchyard/contracts/launch-runs';
import { decodeUtf8, isTextualType } from '../store/content-types.js';
import type { ArtifactContent } from '../store/artifact-store.js';
import { launchTool } from './spec.js';

/** Text artifacts as text; anything else (or bytes that are not UTF-8) as base64 with `;base64` in the type. */
export function encodeArtifact(artifact: ArtifactContent) {
  const text = isTextualType(artifact.contentType) ? decodeUtf8(artifact.bytes) : undefined;
  if (text !== undefined) {
    return {
      name: artifact.name,
      content_type: artifact.contentType,
      sha256: artifact.sha256,
      content: text,
      encoding: 'utf-8' as const,
    };
  }
  return {
    name: artifact.name,
    content_type: `${artifact.contentType};base64`,
    sha256: artifact.sha256,
    content: Buffer.from(artifact.bytes).toString('base64'),
    encoding: 'base64' as const,
  };
}

export const getArtifactTool = launchTool({
  name: 'launch_get_artifact',
  title: 'Read a launch run artifact',
  description:
    'Returns one artifact of a run by name (as listed in launch_get_status, e.g. page_plan.json, ' +
    'validation_report.json, drafts/docs/index.md) with its sha256. Text comes as text; binary as base64.',
  input: LaunchGetArtifactInputSchema,
  output: LaunchGetArtifactOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (input, call) => ({
    ok: true as const,
    run_id: input.run_id,
    artifact: encodeArtifact(await (await call.state.runs()).artifact(input.run_id, input.artifact_name)),
  }),
});
