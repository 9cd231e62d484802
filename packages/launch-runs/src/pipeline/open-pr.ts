import { classifyHttpStatus } from '@switchyard/resilience';
import { GithubPullRequests } from '../commit/github-provider.js';
import { commitServiceError } from '../commit/errors.js';
import { commitLaunch } from '../commit/launch-commit.js';
import { LocalPullRequests } from '../commit/local-provider.js';
import { pullRequestBody, pullRequestTitle } from '../commit/pr-body.js';
import type { PullRequestProvider } from '../commit/types.js';
import { gitClient } from '../git/git-client.js';
import { boundedGitStep, gitStep, isNetworkFailure } from '../git/operations.js';
import { parseRepoLocation, type RepoLocation } from '../git/repo-location.js';
import { markerIds } from '../gates/factual.js';
import { runScratchHome } from '../subprocess/environment.js';
import { writeJsonArtifact } from './artifact-io.js';
import type { PrRecord } from './artifact-schemas.js';
import { throwIfCancelled } from './errors.js';
import type { ResolvedPipelineOptions } from './options.js';
import { readSiteFile } from './site-files.js';
import type { PullRequestResult, WorkerContext } from './types.js';
import { readOptionalWorkerArtifact, readWorkerArtifact } from './worker-artifacts.js';
import { launchBranch, workspacePaths } from './workspace.js';

/** The HTTP status git reports when the remote answered: "The requested URL returned error: 403", "HTTP 503". */
const HTTP_ANSWER = /(?:returned error:|\bHTTP) (\d{3})\b/i;

/**
 * A failed push is worth retrying when the network failed, or when the remote's answer is one any upstream's
 * would be (408, 429, 5xx: classifyHttpStatus); any other answer (403: the token may not push, 404) is a
 * refusal, although git words it "unable to access" too.
 */
function pushRetryable(text: string, remote: RepoLocation): boolean {
  const status = HTTP_ANSWER.exec(text)?.[1];
  if (status === undefined) return isNetworkFailure(text);
  return classifyHttpStatus(Number(status), { upstream: remote.display }).retryable === true;
}

/** git config that authenticates pushes to an https GitHub remote (an extra header; never in argv). */
function pushAuthConfig(remote: RepoLocation, token: string | undefined): Record<string, string> {
  if (token === undefined || remote.kind !== 'network' || !/^https:\/\//i.test(remote.cloneArg)) return {};
  const origin = new URL(remote.cloneArg).origin;
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return { [`http.${origin}/.extraheader`]: `AUTHORIZATION: basic ${basic}` };
}

/**
 * W9: commits the worktree on `launch/<run_id>/<product_slug>` as the configured author, pushes the branch
 * to the site repository (or pr.remote) and opens the pull request through the commit service; writes
 * pr.json. Idempotent: after a success it answers from pr.json; after an interrupted attempt it reuses the
 * commit already made and the PR already opened.
 */
export async function openPullRequest(
  ctx: WorkerContext,
  options: ResolvedPipelineOptions,
): Promise<PullRequestResult> {
  const branch = launchBranch(ctx.runId, ctx.config.product_slug);
  const done = await readOptionalWorkerArtifact(ctx.artifacts, 'pr.json').catch(() => undefined);
  if (done !== undefined && done.branch === branch)
    return { pr_url: done.pr_url, branch: done.branch, commit_sha: done.commit_sha };

  const { config } = ctx;
  const inventory = await readWorkerArtifact(ctx.artifacts, 'repo_inventory.json');
  const plan = await readWorkerArtifact(ctx.artifacts, 'page_plan.json');
  const report = await readWorkerArtifact(ctx.artifacts, 'validation_report.json');
  const remote = parseRepoLocation(
    config.pr.remote ?? config.site.repo,
    config.pr.remote === undefined ? 'site.repo' : 'pr.remote',
  );

  let token: string | undefined;
  let provider: PullRequestProvider;
  if (config.pr.provider === 'github') {
    const github = config.pr.github!;
    token = ctx.env[github.token_env];
    if (token === undefined || token === '') {
      throw commitServiceError(
        `The environment variable ${github.token_env} (pr.github.token_env) is not set`,
        false,
        {
          provider: 'github',
          reason: 'token_missing',
          token_env: github.token_env,
        },
      );
    }
    provider = new GithubPullRequests(
      {
        owner: github.owner,
        repo: github.repo,
        token,
        apiBaseUrl: github.api_base_url ?? 'https://api.github.com',
      },
      options.github,
    );
  } else {
    provider = new LocalPullRequests(remote);
  }

  const siteRoot = workspacePaths(ctx.runDir).site;
  const identity = { 'user.name': config.commit.author_name, 'user.email': config.commit.author_email };
  const gitUntil = (signal: AbortSignal) =>
    gitClient(siteRoot, {
      binary: options.gitBinary,
      signal,
      home: runScratchHome(ctx.runDir),
      config: { ...identity, 'commit.gpgsign': 'false', ...pushAuthConfig(remote, token) },
    });
  const git = gitUntil(ctx.signal);
  const pages = plan.pages.map((page) => page.path);
  const message =
    config.commit.message ??
    [
      `${pullRequestTitle(config.product_name)}`,
      '',
      ...pages.map((path) => `- ${path}`),
      '',
      `Launch run: ${ctx.runId}`,
    ].join('\n');

  throwIfCancelled(ctx.signal);
  const current = (
    await gitStep(
      ctx.signal,
      () => git.raw(['rev-parse', '--abbrev-ref', 'HEAD']),
      (text) => commitServiceError(`git rev-parse failed: ${text}`, false),
    )
  ).trim();
  if (current !== branch) {
    await gitStep(
      ctx.signal,
      () => git.raw(['checkout', '--quiet', branch]),
      (text) => commitServiceError(`The launch branch ${branch} is missing: ${text}`, false),
    );
  }
  const commit = await gitStep(
    ctx.signal,
    () => commitLaunch(git, { baseSha: inventory.site.sha, allowedPaths: config.allowed_paths, message }),
    (text) => commitServiceError(`Committing the launch failed: ${text}`, false, { step: 'commit' }),
  );
  const pushing = `Pushing ${branch} to ${remote.display}`;
  await boundedGitStep(
    ctx.signal,
    { timeoutMs: options.gitTimeoutMs },
    (bounded) =>
      gitUntil(bounded).raw(['push', '--quiet', '--', remote.cloneArg, `HEAD:refs/heads/${branch}`]),
    (text) =>
      commitServiceError(`${pushing} failed: ${text}`, pushRetryable(text, remote), {
        step: 'push',
        remote: remote.display,
      }),
    () =>
      commitServiceError(
        `${pushing} took longer than ${options.gitTimeoutMs} ms (LAUNCH_GIT_TIMEOUT_MS)`,
        true,
        {
          step: 'push',
          remote: remote.display,
        },
      ),
  );

  let markers = 0;
  for (const path of pages) {
    const text = await readSiteFile(siteRoot, path);
    markers +=
      text === undefined ? 0 : text.split('\n').reduce((count, line) => count + markerIds(line).length, 0);
  }
  const opened = await provider.open({
    runId: ctx.runId,
    branch,
    baseRef: config.site.base_ref,
    commitSha: commit.sha,
    title: pullRequestTitle(config.product_name),
    body: pullRequestBody({
      productName: config.product_name,
      runId: ctx.runId,
      branch,
      plan,
      report,
      truthLock: {
        pages: pages.length,
        markers,
        openIssues: report.issues.filter((issue) => issue.gate === 'TruthLock' && issue.status === 'OPEN')
          .length,
      },
    }),
    signal: ctx.signal,
  });
  const record: PrRecord = {
    schema_version: '1.0',
    provider: provider.name,
    pr_url: opened.url,
    branch,
    commit_sha: commit.sha,
    base_ref: config.site.base_ref,
    base_sha: inventory.site.sha,
    number: opened.number,
    pages,
  };
  await writeJsonArtifact(ctx.artifacts, 'pr.json', record);
  ctx.logger.info('W9 opened pull request', {
    provider: provider.name,
    branch,
    commit_sha: commit.sha,
    created_commit: commit.created,
  });
  return { pr_url: record.pr_url, branch, commit_sha: commit.sha };
}
