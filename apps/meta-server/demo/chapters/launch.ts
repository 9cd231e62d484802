import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/client';
import {
  LaunchFixNextOutputSchema,
  LaunchGetStatusOutputSchema,
  LaunchListRunsOutputSchema,
  LaunchOpenPrOutputSchema,
  LaunchStartRunOutputSchema,
  LaunchValidateOutputSchema,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { exampleRunConfig, materializeExampleRepos } from '@switchyard/launch-runs';
import { callTool } from '../call.js';
import { chapter, line, step } from '../print.js';

const RESTING_STATES = new Set(['VALIDATING', 'READY_FOR_PR', 'FAILED', 'CANCELLED', 'DONE']);
const POLL_MS = 250;
const RUN_TIMEOUT_MS = 180_000;

function describeReport(report: ValidationReport): void {
  const gates = report.gates.map(
    (gate) => `${gate.name} ${gate.skipped ? 'skipped' : gate.ok ? 'ok' : 'FAILED'}`,
  );
  line(`gates: ${gates.join(', ')}`);
  const open = report.issues.filter((issue) => issue.status === 'OPEN');
  line(report.ok ? 'report ok: nothing blocks the pull request' : `${open.length} open issue(s):`);
  for (const issue of open) line(`- [${issue.severity}] ${issue.gate}: ${issue.message}`, 2);
}

/** A documentation launch on the example repositories: start, watch, validate, fix, open the PR. */
export async function launchRun(client: Client, workDir: string): Promise<void> {
  chapter(
    '4. Launch runs: document a product release, from source to pull request',
    'The example product "Tallyho" and a documentation site become two local git repositories. A run reads\n' +
      'the source, drafts pages that cite it, links them into the site, validates, fixes, and opens a PR.',
  );
  const repos = await materializeExampleRepos(workDir);
  line(`source ${repos.sourceRepo}`);
  line(`site   ${repos.siteRepo}`);
  const runConfig = exampleRunConfig(repos);

  step('launch_start_run', 'product tallyho, sections products and docs');
  const started = await callTool(
    client,
    'launch_start_run',
    { run_config: runConfig, idempotency_key: 'demo-tallyho-1' },
    LaunchStartRunOutputSchema,
  );
  const runId = started.run_id;
  line(`run ${runId} is ${started.state}; the workers go on in the background`);

  step('launch_get_status', `polled every ${POLL_MS} ms until the run rests`);
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  let lastState = '';
  for (;;) {
    const { status } = await callTool(
      client,
      'launch_get_status',
      { run_id: runId },
      LaunchGetStatusOutputSchema,
    );
    if (status.state !== lastState) {
      line(`→ ${status.state}`, 2);
      lastState = status.state;
    }
    const busy = (status.details as { busy?: unknown } | undefined)?.busy === true;
    if (RESTING_STATES.has(status.state) && !busy) {
      line(`${status.artifacts.length} artifacts written, ${status.open_issues.length} open issue(s)`);
      break;
    }
    if (Date.now() > deadline)
      throw new Error(`run ${runId} still ${status.state} after ${RUN_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
  if (lastState === 'FAILED' || lastState === 'CANCELLED') throw new Error(`run ${runId} ended ${lastState}`);

  step('launch_validate', 'run the gates on the site worktree');
  let report = (await callTool(client, 'launch_validate', { run_id: runId }, LaunchValidateOutputSchema))
    .validation_report;
  describeReport(report);

  while (!report.ok) {
    step('launch_fix_next', 'fix the next issue, then validate again');
    const fix = await callTool(client, 'launch_fix_next', { run_id: runId }, LaunchFixNextOutputSchema);
    line(
      `fixed ${fix.fixed_issue_id} with ${fix.applied_patch_ids.join(', ')}; ${fix.remaining_blockers} blocker(s) left`,
    );
    report = fix.validation_report;
    describeReport(report);
  }

  step('launch_open_pr', 'commit on the launch branch and open the pull request');
  const pr = await callTool(client, 'launch_open_pr', { run_id: runId }, LaunchOpenPrOutputSchema);
  line(`branch ${pr.branch}`);
  line(`commit ${pr.commit_sha.slice(0, 12)}`);
  line(`PR     ${pr.pr_url}`);

  step('launch_list_runs', `runs of ${runConfig.product_slug}`);
  const list = await callTool(
    client,
    'launch_list_runs',
    { filter: { product_slug: runConfig.product_slug } },
    LaunchListRunsOutputSchema,
  );
  for (const run of list.runs) line(`- ${run.run_id} ${run.state} (started ${run.started_at})`);
}
