import type { Client } from '@modelcontextprotocol/client';
import {
  LaunchFixNextOutputSchema,
  LaunchListRunsOutputSchema,
  LaunchOpenPrOutputSchema,
  LaunchValidateOutputSchema,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { exampleRunConfig, materializeExampleRepos } from '@switchyard/launch-runs';
import { callTool } from '../call.js';
import { chapter, line, step } from '../print.js';
import { POLL_MS, restsForClient, startRun, watchRun } from '../launch-run.js';

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
  const runId = await startRun(client, runConfig, 'demo-tallyho-1');

  step('launch_get_status', `polled every ${POLL_MS} ms until the run rests`);
  const status = await watchRun(client, runId, restsForClient);
  line(`${status.artifacts.length} artifacts written, ${status.open_issues.length} open issue(s)`);

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
