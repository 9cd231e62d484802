import { join } from 'node:path';

/** Where a run keeps its working copies: `<runDir>/workspace/{source,site,build}`. */
export interface WorkspacePaths {
  root: string;
  source: string;
  site: string;
  /** Scratch output of the SiteBuild gate (kept outside the site worktree so validation never writes to it). */
  build: string;
}

export function workspacePaths(runDir: string): WorkspacePaths {
  const root = join(runDir, 'workspace');
  return { root, source: join(root, 'source'), site: join(root, 'site'), build: join(root, 'build') };
}

/** `launch/<run_id>/<product_slug>` (design, binding). */
export function launchBranch(runId: string, productSlug: string): string {
  return `launch/${runId}/${productSlug}`;
}
