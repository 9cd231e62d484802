import type { RunConfig, Section, SectionState, ValidationReport } from '@switchyard/contracts/launch-runs';

/**
 * The seam between the launch pipeline (workers W1..W9: plain functions over git repositories and files)
 * and the run runtime (state machine, database, events, tools). The runtime owns persistence, events and
 * state; a worker reads the artifacts of earlier workers and writes its own through `artifacts`.
 */

export interface ArtifactWriteResult {
  name: string;
  sha256: string;
}

/** A run's artifacts: written atomically (temp file + rename) and indexed with sha256 by the runtime. */
export interface ArtifactStore {
  /** Same bytes give the same sha256; writing an existing name replaces it (no duplicate index entry). */
  write(
    name: string,
    content: string | Uint8Array,
    options?: { contentType?: string },
  ): Promise<ArtifactWriteResult>;
  /** The artifact's bytes, or undefined when the run has no artifact of that name. */
  read(name: string): Promise<Uint8Array | undefined>;
}

export interface WorkerLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface WorkerContext {
  runId: string;
  config: RunConfig;
  /**
   * The run's own folder (created by the runtime). Workers keep their working copies under
   * `<runDir>/workspace/` (`source/` clone, `site/` worktree); artifacts are NOT stored here by workers.
   */
  runDir: string;
  artifacts: ArtifactStore;
  /** Aborted when the run is cancelled or the server shuts down: stop promptly, leave no partial writes. */
  signal: AbortSignal;
  logger: WorkerLogger;
  /** Environment to read `pr.github.token_env` from (process.env by default). */
  env: Readonly<Record<string, string | undefined>>;
}

/** Section progress a worker reports, merged into the run's section_states by the runtime. */
export type SectionProgress = Partial<Record<Section, SectionState>>;

export interface InputsResult {
  source_sha: string;
  site_sha: string;
}

export interface PlanResult {
  sections: SectionProgress;
}

export interface DraftResult {
  sections: SectionProgress;
}

export interface LinkResult {
  sections: SectionProgress;
  applied_patch_ids: string[];
}

export interface FixResult {
  fixed_issue_id: string;
  applied_patch_ids: string[];
  /** False when the fix changed nothing: the runtime fails the run with details.reason = fix_no_op. */
  changed: boolean;
}

export interface PullRequestResult {
  pr_url: string;
  branch: string;
  commit_sha: string;
}

/**
 * The workers. Each is deterministic (same inputs, byte-identical artifacts) and re-runnable after an
 * interruption. Failures are SwitchyardErrors with the contract's codes (ALLOWED_PATHS_VIOLATION,
 * TOOLCHAIN_MISSING, COMMIT_SERVICE_ERROR with a truthful `retryable`, ...).
 */
export interface LaunchPipeline {
  /** W1 → CLONED_INPUTS: clone source and site at their refs, pin SHAs, inventory files. `repo_inventory.json`. */
  cloneInputs(ctx: WorkerContext): Promise<InputsResult>;
  /** W2 → (INGESTED): claims with evidence. `product_facts.json`, `evidence_map.json`. */
  extractFacts(ctx: WorkerContext): Promise<void>;
  /** W3 → FACTS_READY (with W2): code snippets with provenance. `snippet_catalog.json`. */
  catalogSnippets(ctx: WorkerContext): Promise<void>;
  /** W4 → PLAN_READY: pages per required section. `page_plan.json`. Sections become OUTLINED. */
  planPages(ctx: WorkerContext): Promise<PlanResult>;
  /** W5 → DRAFT_READY: Markdown drafts with claim markers. `drafts/<section>/*.md`. Sections become DRAFTED. */
  draftPages(ctx: WorkerContext): Promise<DraftResult>;
  /** W6 → LINKING: patch bundle applied to the site worktree inside allowed_paths only. `patch_bundle.json`, `diff_report.md`. */
  linkPages(ctx: WorkerContext): Promise<LinkResult>;
  /** W7 → VALIDATING / READY_FOR_PR: run the profile's gates, read-only. `validation_report.json`. */
  validateSite(ctx: WorkerContext): Promise<ValidationReport>;
  /** W8: fix exactly the next issue of `report` with the smallest change. `fix_<issue_id>.json`. */
  fixNext(ctx: WorkerContext, report: ValidationReport): Promise<FixResult>;
  /** W9 → PR_OPENED: commit on launch/<run_id>/<product_slug>, push, open the PR; idempotent. `pr.json`. */
  openPullRequest(ctx: WorkerContext): Promise<PullRequestResult>;
}
