import type { Client } from '@modelcontextprotocol/client';
import { materializeExampleRepos, verifyEventChain, type RunEvent } from '@switchyard/launch-runs';
import { callTool } from './harness/mcp-client.js';
import { GITHUB_TOKEN_ENV } from './sentinels.js';

export interface LaunchRepos {
  sourceRepo: string;
  siteRepo: string;
}

/** The example product and site repositories that ship with launch-runs, as git repositories under `dir`. */
export async function exampleRepos(dir: string): Promise<LaunchRepos> {
  const repos = await materializeExampleRepos(dir);
  return { sourceRepo: repos.sourceRepo, siteRepo: repos.siteRepo };
}

/** A run_config for the example repositories; with `githubApi`, PRs go to the GitHub stand-in with the sentinel token. */
export function runConfig(
  repos: LaunchRepos,
  options: { githubApi?: string; slug?: string; drafting?: 'extractive' | 'model' } = {},
): Record<string, unknown> {
  return {
    schema_version: '1.0',
    ...(options.drafting === undefined ? {} : { drafting: options.drafting }),
    product_slug: options.slug ?? 'tallyho',
    product_name: 'Tallyho',
    source: { repo: repos.sourceRepo },
    site: { repo: repos.siteRepo },
    required_sections: ['products', 'docs'],
    allowed_paths: ['content/products/**', 'content/docs/**'],
    pr:
      options.githubApi === undefined
        ? undefined
        : {
            provider: 'github',
            github: {
              owner: 'switchyard-mcp',
              repo: 'site',
              token_env: GITHUB_TOKEN_ENV,
              api_base_url: options.githubApi,
            },
          },
  };
}

export interface RunStatus {
  run_id: string;
  state: string;
  details: Record<string, unknown>;
  artifacts: { name: string; sha256: string }[];
}

/** A launch tool call that must succeed (`ok: true`); its payload. */
export async function launchCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const answer = await callTool(client, name, args, { timeoutMs: 120_000 });
  if (answer.isError || answer.structured?.ok !== true) {
    throw new Error(`${name} failed: ${JSON.stringify(answer.structured)}`);
  }
  return answer.structured;
}

/** A text artifact of a run, read through launch_get_artifact part by part. */
export async function readArtifact(client: Client, runId: string, name: string): Promise<string> {
  let content = '';
  for (let offset: unknown = 0; typeof offset === 'number';) {
    const answer = await launchCall(client, 'launch_get_artifact', {
      run_id: runId,
      artifact_name: name,
      offset,
    });
    content += (answer.artifact as { content: string }).content;
    offset = answer.next_offset;
  }
  return content;
}

export async function runStatus(client: Client, runId: string): Promise<RunStatus> {
  return (await launchCall(client, 'launch_get_status', { run_id: runId })).status as RunStatus;
}

const RESTING = new Set(['VALIDATING', 'READY_FOR_PR', 'DONE', 'FAILED', 'CANCELLED']);

/** A stable state, or a model-drafting run waiting for its pages (DRAFTING, `waiting_for_drafts` listed). */
function rests(status: RunStatus): boolean {
  if (RESTING.has(status.state)) return true;
  const waiting = (status as { waiting_for_drafts?: unknown }).waiting_for_drafts;
  return status.state === 'DRAFTING' && Array.isArray(waiting) && waiting.length > 0;
}

/** Polls until the run's background work rests (a stable state, nothing busy). */
export async function waitForRest(client: Client, runId: string, timeoutMs = 120_000): Promise<RunStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await runStatus(client, runId);
    if (status.details.busy !== true && rests(status)) return status;
    if (Date.now() > deadline)
      throw new Error(`run ${runId} did not come to rest: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Drives a run to DONE as a client would: resume to a stable state, fix until ready, open the PR. */
export async function driveToDone(client: Client, runId: string): Promise<RunStatus> {
  for (let guard = 0; guard < 12; guard += 1) {
    const status = await runStatus(client, runId);
    if (status.details.busy === true) {
      await waitForRest(client, runId);
      continue;
    }
    if (status.state === 'VALIDATING' || status.state === 'READY_FOR_PR' || status.state === 'DONE') break;
    if (status.state === 'FAILED' || status.state === 'CANCELLED')
      throw new Error(`run ${runId} ended ${status.state}`);
    await launchCall(client, 'launch_resume', { run_id: runId });
  }
  for (let guard = 0; guard < 10 && (await runStatus(client, runId)).state === 'VALIDATING'; guard += 1) {
    await launchCall(client, 'launch_fix_next', { run_id: runId });
  }
  if ((await runStatus(client, runId)).state !== 'DONE')
    await launchCall(client, 'launch_open_pr', { run_id: runId });
  return runStatus(client, runId);
}

/** The run's event log, read through its MCP resource (launch://runs/{run_id}/events.ndjson). */
export async function runEvents(client: Client, runId: string): Promise<RunEvent[]> {
  const result = await client.readResource({ uri: `launch://runs/${runId}/events.ndjson` });
  const text = result.contents.map((part) => ('text' in part ? part.text : '')).join('');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RunEvent);
}

/** Verifies the hash chain of a run's events (launch-runs' own verifier). */
export function chainOk(events: readonly RunEvent[]): boolean {
  return verifyEventChain(events).ok;
}
