import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { RUN_STATES, stateAllows, type StateRuledTool } from '@switchyard/contracts/launch-runs/tool-states';
import { dateAndClock, h } from '../app/dom.js';
import { row, table } from '../app/table.js';
import { startView, toolButton, type ViewContext } from '../app/view.js';
import { complete, DRAFTS, merge, type Answer, type Run, type State } from './run-dashboard/run.js';

/** The nine workers and the state a run reaches when each has done its work (W8: fixes, counted apart). */
const WORKERS: readonly { id: string; name: string; doneAt?: State }[] = [
  { id: 'W1', name: 'Clone inputs', doneAt: 'CLONED_INPUTS' },
  { id: 'W2', name: 'Extract facts', doneAt: 'INGESTED' },
  { id: 'W3', name: 'Catalog snippets', doneAt: 'FACTS_READY' },
  { id: 'W4', name: 'Plan pages', doneAt: 'PLAN_READY' },
  { id: 'W5', name: 'Draft pages', doneAt: 'DRAFT_READY' },
  { id: 'W6', name: 'Link pages', doneAt: 'LINKING' },
  { id: 'W7', name: 'Validate', doneAt: 'VALIDATING' },
  { id: 'W8', name: 'Fix issues' },
  { id: 'W9', name: 'Open the PR', doneAt: 'PR_OPENED' },
];

const BUTTONS: readonly { label: string; tool: StateRuledTool }[] = [
  { label: 'Validate', tool: 'launch_validate' },
  { label: 'Fix next', tool: 'launch_fix_next' },
  { label: 'Open PR', tool: 'launch_open_pr' },
];

const STATE_TONES: Partial<Record<State, string>> = {
  READY_FOR_PR: 'success',
  PR_OPENED: 'success',
  DONE: 'success',
  FAILED: 'danger',
  CANCELLED: 'danger',
};

/** Where `state` is on the main line (FAILED and CANCELLED are off it: -1). */
const position = (state: State): number =>
  state === 'FAILED' || state === 'CANCELLED' ? -1 : RUN_STATES.indexOf(state);

const UNFINISHED = ['Waiting', 'Running', 'Stopped'];

function workerProgress(worker: (typeof WORKERS)[number], status: Run['status']): string {
  const details = status.details ?? {};
  if (details.active_worker === worker.id) return 'Running';
  if (worker.doneAt === undefined) {
    const attempts = typeof details.fix_attempts === 'number' ? details.fix_attempts : 0;
    if (attempts > 0) return `${attempts} ${attempts === 1 ? 'fix' : 'fixes'} applied`;
    return position(status.state) >= position('READY_FOR_PR') ? 'Not needed' : 'Waiting';
  }
  if (position(status.state) < 0) return 'Stopped';
  return position(status.state) >= position(worker.doneAt) ? 'Done' : 'Waiting';
}

function progress(status: Run['status']): HTMLElement {
  const steps = WORKERS.map((worker) => ({ worker, text: workerProgress(worker, status) }));
  const done = steps.filter((step) => !UNFINISHED.includes(step.text)).length;
  return h(
    'section',
    { 'aria-label': 'Progress' },
    h('h2', {}, `Progress: ${done} of ${WORKERS.length} steps`),
    h(
      'ol',
      { class: 'steps' },
      ...steps.map(({ worker, text }) =>
        h(
          'li',
          { 'data-step': text === 'Waiting' ? 'waiting' : 'reached' },
          h('strong', {}, worker.id),
          ` ${worker.name}: `,
          h('span', { class: text === 'Waiting' || text === 'Stopped' ? 'muted' : 'success' }, text),
        ),
      ),
    ),
  );
}

function sections(states: Record<string, string> | undefined): HTMLElement | undefined {
  const entries = Object.entries(states ?? {});
  if (entries.length === 0) return undefined;
  return h(
    'section',
    { 'aria-label': 'Sections' },
    h('h2', {}, 'Sections'),
    table('Section states', ['Section', 'State'], entries.map(row)),
  );
}

function gates(report: ValidationReport): HTMLElement {
  const result = (gate: ValidationReport['gates'][number]): HTMLElement =>
    gate.skipped === true
      ? h('span', { class: 'muted' }, `Skipped${gate.reason === undefined ? '' : `: ${gate.reason}`}`)
      : h('span', { class: gate.ok ? 'success' : 'danger' }, gate.ok ? 'Passed' : 'Failed');
  return h(
    'section',
    { 'aria-label': 'Gates' },
    h(
      'h2',
      {},
      'Gates ',
      h('span', { class: report.ok ? 'success' : 'danger' }, report.ok ? 'all passed' : 'not passed'),
      h('span', { class: 'muted' }, ` · profile ${report.profile}`),
    ),
    table(
      'Gate results',
      ['Gate', 'Result', 'Time'],
      report.gates.map((gate) =>
        row([gate.name, result(gate), h('span', { class: 'time' }, `${Math.round(gate.duration_ms)} ms`)]),
      ),
    ),
  );
}

/** The open issues with their evidence (message, place, suggested fix) when the report is known. */
function issues(run: Run): HTMLElement {
  const open = run.report?.issues.filter((issue) => issue.status === 'OPEN');
  const items =
    open?.map((issue) =>
      h(
        'li',
        { class: 'card', 'data-issue': issue.issue_id },
        h(
          'p',
          { class: 'row' },
          h(
            'strong',
            { class: issue.severity === 'warn' || issue.severity === 'info' ? 'warning' : 'danger' },
            issue.severity,
          ),
          h('span', {}, `${issue.gate} · ${issue.error_code}`),
        ),
        h('p', {}, issue.message),
        h(
          'p',
          { class: 'muted' },
          `${issue.location.path}${issue.location.line > 0 ? `:${issue.location.line}` : ''}`,
        ),
        issue.suggested_fix === null ? undefined : h('p', {}, `Suggested fix: ${issue.suggested_fix}`),
      ),
    ) ??
    (run.status.open_issues ?? []).map((issue) =>
      h(
        'li',
        { class: 'card', 'data-issue': issue.issue_id },
        h('p', { class: 'row' }, h('strong', { class: 'danger' }, issue.severity), h('span', {}, issue.gate)),
        h('p', {}, issue.title),
      ),
    );
  return h(
    'section',
    { 'aria-label': 'Open issues' },
    h('h2', {}, `Open issues: ${items.length}`),
    items.length === 0 ? h('p', { class: 'muted' }, 'None.') : h('ul', {}, ...items),
  );
}

function drafts(run: Run): HTMLElement | undefined {
  const pages = (run.status.artifacts ?? []).filter((artifact) => artifact.name.startsWith(DRAFTS));
  if (pages.length === 0) return undefined;
  return h(
    'section',
    { 'aria-label': 'Drafted pages' },
    h('h2', {}, 'Drafted pages'),
    h(
      'ul',
      {},
      ...pages.map((page, i) => {
        const preview = run.previews.get(`${page.name}@${page.sha256}`);
        const path = page.name.slice(DRAFTS.length);
        return h(
          'li',
          { class: 'card' },
          h(
            'details',
            { open: i === 0 ? '' : undefined },
            h(
              'summary',
              {},
              h('strong', {}, preview?.title ?? path),
              preview?.title === undefined ? undefined : h('span', { class: 'muted' }, ` · ${path}`),
            ),
            h('pre', { class: 'preview' }, preview?.text ?? 'Loading…'),
          ),
        );
      }),
    ),
  );
}

function buttons(run: Run, context: ViewContext): HTMLElement {
  const args = () => ({ run_id: run.runId });
  const shown = BUTTONS.map(({ label, tool }) => {
    const button = toolButton(context, label, tool, args);
    if (button !== undefined) button.disabled = !stateAllows(tool, run.status.state);
    return button;
  });
  return h('div', { class: 'row' }, ...shown);
}

function draw(root: HTMLElement, run: Run, context: ViewContext): void {
  const { status } = run;
  const fix = run.fix;
  root.replaceChildren(
    h(
      'header',
      {},
      h('h1', {}, `Launch run${status.product_slug === undefined ? '' : ` of ${status.product_slug}`}`),
      h('span', { class: 'muted' }, status.run_id),
    ),
    h(
      'p',
      { class: 'row' },
      h('strong', { class: STATE_TONES[status.state] }, status.state),
      status.details?.busy === true ? h('span', { class: 'warning' }, 'working') : undefined,
      status.updated_at === undefined
        ? undefined
        : h('span', { class: 'muted time' }, `updated ${dateAndClock(status.updated_at, context.timeZone)}`),
    ),
    buttons(run, context),
  );
  if (fix !== undefined)
    root.append(
      h(
        'p',
        { role: 'status' },
        `Fixed ${fix.fixed_issue_id} (${fix.applied_patch_ids.join(', ') || 'no patch'}); ` +
          `${fix.remaining_blockers} blocking ${fix.remaining_blockers === 1 ? 'issue' : 'issues'} left.`,
      ),
    );
  if (run.pr !== undefined)
    root.append(
      h(
        'p',
        { role: 'status' },
        `Pull request ${run.pr.pr_url}: branch ${run.pr.branch}, commit ${run.pr.commit_sha.slice(0, 12)}.`,
      ),
    );
  if (run.truncated !== undefined) root.append(h('p', { class: 'warning' }, run.truncated));
  for (const part of [
    progress(status),
    sections(status.section_states),
    run.report === undefined ? undefined : gates(run.report),
    issues(run),
    drafts(run),
  ])
    if (part !== undefined) root.append(part);
}

let current: Run | undefined;

startView<Answer>({
  name: 'run-dashboard',
  render(root, answer, context) {
    const run = merge(current, answer);
    current = run;
    // Only while this answer is the latest: a later one draws its own.
    const redraw = () => {
      if (current === run) draw(root, run, context);
    };
    draw(root, run, context);
    complete(run, answer, context, redraw).catch((error: unknown) => {
      if (current === run)
        root.append(h('p', { role: 'alert' }, error instanceof Error ? error.message : String(error)));
    });
  },
});
