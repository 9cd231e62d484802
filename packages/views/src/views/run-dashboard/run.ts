// The run dashboard's data: what it knows of the run from the answers it is given (merge), and what it asks
// for beside them through the host (complete): the status, the last validation report, the drafted pages.
import type {
  ArtifactResponse,
  LaunchFixNextOutput,
  LaunchGetStatusOutput,
  LaunchOpenPrOutput,
  LaunchStartRunOutput,
  LaunchValidateOutput,
  RunStatus,
  ValidationReport,
} from '@switchyard/contracts/launch-runs';
import type { ViewContext } from '../../app/view.js';

/** launch_get_status and launch_resume answer a status; the others what they did to the run. */
export type Answer =
  | LaunchGetStatusOutput
  | LaunchStartRunOutput
  | LaunchValidateOutput
  | LaunchFixNextOutput
  | LaunchOpenPrOutput;
export type State = RunStatus['state'];
interface Preview {
  title?: string;
  text: string;
}
type Fix = Pick<LaunchFixNextOutput, 'fixed_issue_id' | 'applied_patch_ids' | 'remaining_blockers'>;

/** What the view knows of the run: the answers it was given, and what it asked for beside them. */
export interface Run {
  runId: string;
  status: Pick<RunStatus, 'run_id' | 'state'> & Partial<RunStatus>;
  report?: ValidationReport;
  /** The sha256 of the validation_report.json artifact `report` is (so a changed one is read again). */
  reportSha?: string;
  fix?: Fix;
  /** The pull request launch_open_pr answered. */
  pr?: Pick<LaunchOpenPrOutput, 'pr_url' | 'branch' | 'commit_sha'>;
  /** Set when the server cut the answer's lists to its answer limit. */
  truncated?: string;
  /** The title and start of each drafted page, by artifact name and sha256. */
  previews: Map<string, Preview>;
}

export const DRAFTS = 'drafts/';
const REPORT = 'validation_report.json';
/** How much of a drafted page the preview shows. */
const PREVIEW_CHARS = 480;

/**
 * A drafted page as people read it: its front matter's title, then its start without the front matter and
 * the claim and snippet markers. Text, shown as text: markup in a page is its characters.
 */
function preview(markdown: string): Preview {
  const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  const title = /^title:\s*(.+)$/m.exec(frontMatter?.[1] ?? '')?.[1]?.replace(/^(['"])(.*)\1$/, '$2');
  const body = markdown
    .slice(frontMatter?.[0].length ?? 0)
    .replace(/\s*<!--[\s\S]*?-->/g, '')
    .trim();
  const text = body.length > PREVIEW_CHARS ? `${body.slice(0, PREVIEW_CHARS).trimEnd()}…` : body;
  return title === undefined ? { text } : { title, text };
}

/** The run as this answer leaves it: a status replaces the one known, a report or a fix adds to it. */
export function merge(known: Run | undefined, answer: Answer): Run {
  const runId = 'status' in answer ? answer.status.run_id : answer.run_id;
  const run: Run =
    known?.runId === runId
      ? { ...known, fix: undefined, truncated: undefined }
      : { runId, status: { run_id: runId, state: 'CREATED' }, previews: new Map() };
  if ('status' in answer) run.status = answer.status;
  else if ('state' in answer) run.status = { ...run.status, state: answer.state };
  if ('validation_report' in answer) run.report = answer.validation_report;
  if ('fixed_issue_id' in answer) run.fix = answer;
  if ('pr_url' in answer) run.pr = answer;
  if ('truncated' in answer && answer.truncated !== undefined) run.truncated = answer.truncated.message;
  return run;
}

async function artifact(context: ViewContext, runId: string, name: string): Promise<string | undefined> {
  const answer = (await context.ask('launch_get_artifact', { run_id: runId, artifact_name: name })) as
    Partial<ArtifactResponse> | undefined;
  // A large artifact comes in parts: a preview reads the first, the report only whole.
  if (answer?.artifact?.encoding === 'base64') return undefined;
  return typeof answer?.next_offset === 'number' && name === REPORT ? undefined : answer?.artifact?.content;
}

/**
 * What the answer left out, asked for beside it (each only when the server offers the tool): the status
 * after a tool that changed the run, the last report with its evidence, the start of each drafted page.
 */
export async function complete(
  run: Run,
  answer: Answer,
  context: ViewContext,
  redraw: () => void,
): Promise<void> {
  if (!('status' in answer) && context.callable('launch_get_status') !== undefined) {
    const fresh = (await context.ask('launch_get_status', { run_id: run.runId })) as
      Partial<LaunchGetStatusOutput> | undefined;
    if (fresh?.status !== undefined) run.status = fresh.status;
    redraw();
  }
  if (context.callable('launch_get_artifact') === undefined) return;
  const report = run.status.artifacts?.find((entry) => entry.name === REPORT);
  if (report !== undefined && report.sha256 !== run.reportSha) {
    run.reportSha = report.sha256;
    if (!('validation_report' in answer)) {
      const text = await artifact(context, run.runId, REPORT);
      if (text !== undefined) run.report = JSON.parse(text) as ValidationReport;
      redraw();
    }
  }
  for (const page of (run.status.artifacts ?? []).filter((entry) => entry.name.startsWith(DRAFTS))) {
    const key = `${page.name}@${page.sha256}`;
    if (run.previews.has(key)) continue;
    const text = await artifact(context, run.runId, page.name);
    run.previews.set(key, text === undefined ? { text: 'No preview.' } : preview(text));
    redraw();
  }
}
