/** What W9 asks a commit service to do once the launch commit is pushed. */
export interface PullRequestRequest {
  runId: string;
  branch: string;
  baseRef: string;
  commitSha: string;
  title: string;
  body: string;
  signal: AbortSignal;
}

export interface OpenedPullRequest {
  url: string;
  number: number | null;
}

/** A commit service opens (or finds) the pull request for a pushed launch branch; idempotent per branch. */
export interface PullRequestProvider {
  readonly name: 'local' | 'github';
  open(request: PullRequestRequest): Promise<OpenedPullRequest>;
}
