import { RETRYABLE_BY_KIND, SwitchyardError } from '@switchyard/contracts/errors';
import {
  assertOk,
  classifyHttpStatus,
  createUpstreamPolicy,
  redactSecrets,
  registerSecret,
  type UpstreamPolicy,
} from '@switchyard/resilience';
import { createUpstreamKy } from '@switchyard/resilience/ky';
import { lazy } from '@switchyard/server-kit/runtime';
import type { KyInstance } from 'ky';
import { cancelledError } from '../pipeline/errors.js';
import { sha256Hex } from '../pipeline/hashing.js';
import type { GithubClientOptions } from '../pipeline/options.js';
import { commitServiceError } from './errors.js';
import type { OpenedPullRequest, PullRequestProvider, PullRequestRequest } from './types.js';

export interface GithubTarget {
  owner: string;
  repo: string;
  token: string;
  apiBaseUrl: string;
}

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** Stable per (run, branch, commit): a retried or repeated request is recognisably the same one. */
export function idempotencyKey(runId: string, branch: string, commitSha: string): string {
  return `launch-${sha256Hex(`${runId}\n${branch}\n${commitSha}`).slice(0, 40)}`;
}

function githubMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; errors?: { message?: unknown }[] };
    const parts = [parsed.message, ...(parsed.errors ?? []).map((error) => error.message)].filter(
      (part): part is string => typeof part === 'string',
    );
    return redactSecrets(parts.join(': ')).slice(0, 300);
  } catch {
    return '';
  }
}

function pullOf(body: string): OpenedPullRequest | undefined {
  try {
    const parsed = JSON.parse(body) as { html_url?: unknown; number?: unknown };
    if (typeof parsed.html_url === 'string' && typeof parsed.number === 'number')
      return { url: parsed.html_url, number: parsed.number };
  } catch {
    // not a pull request
  }
  return undefined;
}

/**
 * The `github` commit service: POST /repos/{owner}/{repo}/pulls with the token as a bearer header (a
 * registered secret, sent to the API origin only), an Idempotency-Key, retries on 5xx and network failures
 * only (resilience's upstream policy), and 422 "A pull request already exists" answered with the existing
 * pull request (GET /pulls?head=owner:branch).
 */
export class GithubPullRequests implements PullRequestProvider {
  readonly name = 'github' as const;
  private readonly client: () => Promise<KyInstance>;
  private readonly policy: UpstreamPolicy;

  constructor(
    private readonly target: GithubTarget,
    options: Required<GithubClientOptions>,
  ) {
    registerSecret(target.token);
    this.client = lazy(() =>
      createUpstreamKy({
        upstream: 'GitHub',
        baseUrl: target.apiBaseUrl.replace(/\/+$/, ''),
        secretHeaders: { authorization: `Bearer ${target.token}` },
        headers: {
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': 'switchyard-launch',
        },
      }),
    );
    this.policy = createUpstreamPolicy({
      upstream: 'GitHub',
      timeoutMs: options.timeoutMs,
      retryBudgetMs: options.maxDelayMs * options.maxAttempts,
      maxAttempts: options.maxAttempts,
      backoff: { initialDelayMs: options.initialDelayMs, maxDelayMs: options.maxDelayMs },
      breaker: false,
    });
  }

  /** One request through the policy: 5xx and network failures are retried, any other answer is returned. */
  private async call(
    signal: AbortSignal,
    send: (attempt: AbortSignal) => Promise<Response>,
  ): Promise<Answer> {
    try {
      return await this.policy.execute(
        async (attempt) => {
          const response = await send(attempt);
          if (response.status >= 500) await assertOk(response, { upstream: 'GitHub' });
          return { status: response.status, headers: response.headers, body: await response.text() };
        },
        { signal, idempotent: true },
      );
    } catch (error) {
      if (signal.aborted) throw cancelledError();
      const failure = error instanceof SwitchyardError ? error : undefined;
      if (failure?.kind === 'cancelled') throw cancelledError();
      throw commitServiceError(
        `GitHub did not accept the pull request: ${failure?.message ?? 'request failed'}`,
        true,
        { provider: 'github', status: failure?.upstreamStatus },
        error,
      );
    }
  }

  async open(request: PullRequestRequest): Promise<OpenedPullRequest> {
    const { owner, repo } = this.target;
    const path = `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/pulls`;
    const created = await this.call(request.signal, async (signal) =>
      (await this.client()).post(path, {
        json: {
          title: request.title,
          head: request.branch,
          base: request.baseRef,
          body: request.body,
          maintainer_can_modify: true,
        },
        headers: { 'idempotency-key': idempotencyKey(request.runId, request.branch, request.commitSha) },
        signal,
      }),
    );
    if (created.status === 200 || created.status === 201) {
      const pull = pullOf(created.body);
      if (pull !== undefined) return pull;
      throw commitServiceError('GitHub answered without a pull request URL', true, {
        provider: 'github',
        status: created.status,
      });
    }
    const message = githubMessage(created.body);
    if (created.status === 422 && /already exists/i.test(message)) return this.existing(request);
    // GitHub's quota is a 403 (or 429) with x-ratelimit-remaining: 0 or Retry-After: resilience tells a
    // quota from a refusal, and how long to wait.
    const refusal = classifyHttpStatus(created.status, { upstream: 'GitHub', headers: created.headers });
    const retryAfterS =
      refusal.retryAfterMs === undefined ? undefined : Math.ceil(refusal.retryAfterMs / 1000);
    throw commitServiceError(
      `GitHub refused the pull request (${created.status})${message === '' ? '' : `: ${message}`}`,
      refusal.retryable ?? RETRYABLE_BY_KIND[refusal.kind],
      {
        provider: 'github',
        status: created.status,
        ...(retryAfterS === undefined ? {} : { retry_after_s: retryAfterS }),
      },
    );
  }

  private async existing(request: PullRequestRequest): Promise<OpenedPullRequest> {
    const { owner, repo } = this.target;
    const path = `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/pulls`;
    const found = await this.call(request.signal, async (signal) =>
      (await this.client()).get(path, {
        searchParams: { head: `${owner}:${request.branch}`, state: 'all' },
        signal,
      }),
    );
    if (found.status === 200) {
      try {
        const list = JSON.parse(found.body) as unknown;
        if (Array.isArray(list)) {
          for (const item of list) {
            const pull = pullOf(JSON.stringify(item));
            if (pull !== undefined) return pull;
          }
        }
      } catch {
        // fall through
      }
    }
    throw commitServiceError(
      'GitHub says the pull request exists but does not list it',
      found.status >= 500 || found.status === 200,
      {
        provider: 'github',
        status: found.status,
      },
    );
  }
}
