import type { RunConfig, Section, SectionState, ValidationReport } from '@switchyard/contracts/launch-runs';
import type { DraftChannel } from './artifact-schemas.js';

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

/** The pages `writing_brief.json` plans: what a run in model drafting waits for. */
export interface BriefResult {
  page_ids: string[];
}

/** A page body the caller's model wrote for one planned page. */
export interface SubmittedDraft {
  page: string;
  markdown: string;
  /** How it came in: launch_submit_draft (absent: the tool) or the run's task sampling the client's model. */
  via?: DraftChannel;
}

/** A page the caller's model could not write within its rounds: W5 drafts it extractively, saying why. */
export interface DraftFallback {
  page: string;
  /** The model's drafts of the page refused. */
  rounds: number;
  reason: string;
}

/** The verifier's verdict on a submitted draft: accepted (stored as the page's draft) or its issues. */
export interface DraftVerdict {
  accepted: boolean;
  issues: { line: number; sentence: string; code: string; message: string }[];
}

export interface LinkResult {
  sections: SectionProgress;
  applied_patch_ids: string[];
}

/** The one site file a fix rewrites. */
export interface FixChange {
  /** Names the change in FIX_APPLIED and the launch_fix_next answer: a hash of the path and new content. */
  patch_id: string;
  path: string;
  before_sha256: string;
  after_sha256: string;
  /** The file's new content. */
  content: string;
}

/** W8's fix for the next issue, decided without writing anything. */
export interface FixPlan {
  issue_id: string;
  /** null when the fix would change nothing: the runtime fails the run with details.reason = fix_no_op. */
  change: FixChange | null;
  /** What `fix_<issue_id>.json` records about the fix besides its patches (the pipeline's own fields). */
  record: Readonly<Record<string, unknown>>;
}

export interface PullRequestResult {
  pr_url: string;
  branch: string;
  commit_sha: string;
}

/** A fix W8 wrote into the site worktree, as the run's events record it (FIX_APPLYING, then FIX_APPLIED). */
export interface AppliedFix {
  issue_id: string;
  path: string;
  after_sha256: string;
}

/** What a run's workspace held when its owner stopped: enough to rebuild it on another replica. */
export interface WorkspaceRestore {
  /** The SHAs W1 pinned. */
  inputs: InputsResult;
  /** W6 has applied `patch_bundle.json` to the site worktree. */
  linked: boolean;
  /** The fixes written since, in the order they were applied (a path fixed twice: the later one wins). */
  fixes: readonly AppliedFix[];
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
  /** W5 in model drafting → DRAFTING: `writing_brief.json`, what the caller's model writes each page from. */
  publishWritingBrief(ctx: WorkerContext): Promise<BriefResult>;
  /**
   * W5 in model drafting, one page: verifies `draft` against the page's brief; an accepted one becomes the
   * page's draft artifact (as draftPages writes it) and its record in `draft_provenance.json`. A refused one
   * writes nothing.
   */
  acceptDraft(ctx: WorkerContext, draft: SubmittedDraft): Promise<DraftVerdict>;
  /**
   * W5 in model drafting, one page the model did not write: the page's extractive draft (as draftPages writes
   * it), recorded in `draft_provenance.json` as extractive with the fallback's reason.
   */
  fallBackDraft(ctx: WorkerContext, fallback: DraftFallback): Promise<void>;
  /** W6 → LINKING: patch bundle applied to the site worktree inside allowed_paths only. `patch_bundle.json`, `diff_report.md`. */
  linkPages(ctx: WorkerContext): Promise<LinkResult>;
  /** W7 → VALIDATING / READY_FOR_PR: run the profile's gates, read-only. `validation_report.json`. */
  validateSite(ctx: WorkerContext): Promise<ValidationReport>;
  /**
   * W8, first half: choose the next issue of `report` and compute the smallest change that fixes it (refusing
   * a path outside allowed_paths). Writes nothing, so an abort at any point leaves the run as it was.
   */
  planFix(ctx: WorkerContext, report: ValidationReport): Promise<FixPlan>;
  /**
   * W8, second half: write `plan.change` into the site worktree and record `fix_<issue_id>.json` (also for a
   * plan without a change). The runtime counts the attempt once this has returned.
   */
  applyFix(ctx: WorkerContext, plan: FixPlan): Promise<void>;
  /** W9 → PR_OPENED: commit on launch/<run_id>/<product_slug>, push, open the PR; idempotent. `pr.json`. */
  openPullRequest(ctx: WorkerContext): Promise<PullRequestResult>;
  /**
   * Rebuilds `<runDir>/workspace` when this replica does not have it (another replica ran the run until
   * now): clones at the pinned SHAs, then the site files of `patch_bundle.json` (when linked) and of the
   * last fix of each path (its `fix_<issue_id>.json`), each verified by sha256. Writes no artifact; a
   * workspace that exists is left as it is. A fix record that does not hold the content the fix wrote is
   * INTERNAL (`cause_class: WorkspaceRestoreError`, not retryable).
   */
  restoreWorkspace(ctx: WorkerContext, restore: WorkspaceRestore): Promise<void>;
}
