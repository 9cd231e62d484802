import { repoUrl, type RepoLocation } from '../git/repo-location.js';
import type { OpenedPullRequest, PullRequestProvider, PullRequestRequest } from './types.js';

/**
 * The `local` commit service: the pushed branch is the deliverable; its URL names the repository and the
 * branch (`file:///path/to/site.git#launch/<run_id>/<slug>`, or the remote URL + `#branch`).
 */
export class LocalPullRequests implements PullRequestProvider {
  readonly name = 'local' as const;

  constructor(private readonly remote: RepoLocation) {}

  open(request: PullRequestRequest): Promise<OpenedPullRequest> {
    return Promise.resolve({ url: `${repoUrl(this.remote)}#${request.branch}`, number: null });
  }
}
