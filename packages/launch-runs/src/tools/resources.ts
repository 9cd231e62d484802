import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { launchErrorPayload, RunIdSchema } from '@switchyard/contracts/launch-runs';
import { toSwitchyardError } from '@switchyard/contracts/errors';
import type { LaunchRunService } from '../runs/service.js';
import { artifactNameProblem } from '../store/artifact-names.js';
import { encodeArtifact } from './get-artifact.js';

/** How many of the newest runs resources/list enumerates (reads work for every run). */
const LISTED_RUNS = 20;

export function artifactUri(runId: string, name: string): string {
  return `launch://runs/${runId}/artifacts/${name.split('/').map(encodeURIComponent).join('/')}`;
}

export function eventsUri(runId: string): string {
  return `launch://runs/${runId}/events.ndjson`;
}

function variable(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new McpError(
      ErrorCode.InvalidParams,
      'INVALID_INPUT: the resource URI is not valid percent-encoding',
    );
  }
}

function checkedRunId(value: string): string {
  const runId = decoded(value);
  if (!RunIdSchema.safeParse(runId).success) {
    throw new McpError(ErrorCode.InvalidParams, 'INVALID_INPUT: run_id must match ^[A-Za-z0-9_-]{8,64}$', {
      code: 'INVALID_INPUT',
    });
  }
  return runId;
}

/** Domain failures as JSON-RPC errors that still carry the contract code. */
function asMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  const payload = launchErrorPayload(toSwitchyardError(error));
  const code = payload.error.code === 'INTERNAL' ? ErrorCode.InternalError : ErrorCode.InvalidParams;
  return new McpError(code, `${payload.error.code}: ${payload.error.message}`, { code: payload.error.code });
}

/**
 * The run artifacts as resources `launch://runs/{run_id}/artifacts/{name}` (names may contain "/"), and
 * each run's events as NDJSON at `launch://runs/{run_id}/events.ndjson`. Names are checked and looked up
 * in the run's artifact index before any file is touched.
 */
export function registerLaunchResources(
  server: McpServer,
  loadService: () => Promise<LaunchRunService>,
): void {
  server.registerResource(
    'launch-run-artifact',
    new ResourceTemplate('launch://runs/{run_id}/artifacts/{+name}', {
      list: async () => {
        try {
          const service = await loadService();
          return {
            resources: service.recentRuns(LISTED_RUNS).flatMap((run) =>
              service.status(run.runId).artifacts.map((artifact): Resource => ({
                uri: artifactUri(run.runId, artifact.name),
                name: `${run.runId}/${artifact.name}`,
                title: `${artifact.name} of run ${run.runId}`,
              })),
            ),
          };
        } catch (error) {
          throw asMcpError(error);
        }
      },
    }),
    {
      title: 'Launch run artifact',
      description: 'An artifact of a launch run (text as text, binary as a base64 blob).',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      try {
        const runId = checkedRunId(variable(variables.run_id));
        const name = decoded(variable(variables.name));
        const problem = artifactNameProblem(name);
        if (problem !== undefined) {
          throw new McpError(ErrorCode.InvalidParams, `INVALID_INPUT: invalid artifact name: ${problem}`, {
            code: 'INVALID_INPUT',
          });
        }
        const artifact = encodeArtifact(await (await loadService()).artifact(runId, name));
        const base = { uri: uri.href, mimeType: artifact.content_type.replace(/;base64$/, '') };
        return {
          contents: [
            artifact.encoding === 'base64'
              ? { ...base, blob: artifact.content }
              : { ...base, text: artifact.content },
          ],
        };
      } catch (error) {
        throw asMcpError(error);
      }
    },
  );

  server.registerResource(
    'launch-run-events',
    new ResourceTemplate('launch://runs/{run_id}/events.ndjson', {
      list: async () => {
        try {
          return {
            resources: (await loadService()).recentRuns(LISTED_RUNS).map((run): Resource => ({
              uri: eventsUri(run.runId),
              name: `${run.runId}/events.ndjson`,
              title: `Events of run ${run.runId}`,
              mimeType: 'application/x-ndjson',
            })),
          };
        } catch (error) {
          throw asMcpError(error);
        }
      },
    }),
    {
      title: 'Launch run events',
      description: "A run's hash-chained event log as NDJSON, oldest first.",
      mimeType: 'application/x-ndjson',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      try {
        const runId = checkedRunId(variable(variables.run_id));
        const text = (await loadService()).eventsNdjson(runId);
        return { contents: [{ uri: uri.href, mimeType: 'application/x-ndjson', text }] };
      } catch (error) {
        throw asMcpError(error);
      }
    },
  );
}
