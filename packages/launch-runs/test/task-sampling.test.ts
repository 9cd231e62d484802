import type { TaskSnapshot } from '@switchyard/server-kit';
import { describe, expect, it } from 'vitest';
import { startRunTool } from '../src/tools/start-run.js';
import { DIALECTS, storageFor, type Dialect } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { cleanedAfterEach, runConfig, startHarness, type Harness } from './support/harness.js';
import { boardOf, callHandler, OWNER, ref, settled } from './support/task-calls.js';

// A model-drafting run's task asks the client's model for its pages (sampling through MCP Tasks, issue #37
// item 3b) when the request that created it declared the client's sampling capability: the board's
// input_required, and the answers (tasks/update) through launch_submit_draft's verifier, on both databases.
// FakePipeline's verifier refuses a line with __FIXME__ (UNCITED_FACT) and accepts anything else.

const cleanup = cleanedAfterEach();
const SAMPLING = { sampling: {} };
const PRODUCTS = 'products/example-product';
const DOCS = 'docs/example-product';

type Request = {
  method: string;
  params: { messages: { content: { text: string } }[]; systemPrompt: string; maxTokens: number };
};

/** A sampling answer as a client's handler sends it. */
const sampled = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'scripted' });

type Storage = Awaited<ReturnType<typeof storageFor>>;

/** A server on `storage` and `dataDir` (a second one on both reads the first one's runs). */
function harnessOn(
  storage: Storage,
  dataDir: string,
  config: { draftMaxRounds?: number; maxDraftBytes?: number } = {},
) {
  const pipeline = new FakePipeline({ seededProblems: 0 });
  return startHarness({ pipeline, dataDir, keepDataDir: true, config, ...storage });
}

/** A server on a new database (or data directory) of `dialect`. */
async function freshHarness(dialect: Dialect, config: Parameters<typeof harnessOn>[2] = {}) {
  return cleanup.kept(await harnessOn(await storageFor(dialect), cleanup.folder('sampling'), config));
}

/** Starts a model-drafting run as a task, the request declaring `capabilities` besides the extension. */
async function startModelTask(h: Harness, taskId: string, capabilities: object = SAMPLING): Promise<void> {
  await callHandler(
    h,
    startRunTool,
    { run_config: runConfig({ drafting: 'model' }) },
    taskId,
    60_000,
    50,
    capabilities,
  );
}

const requestsOf = (task: TaskSnapshot) => (task.inputRequests ?? {}) as Record<string, Request>;
const textOf = (request: Request | undefined) => request?.params.messages[0]?.content.text ?? '';

async function runIdOf(h: Harness): Promise<string> {
  const [run] = await (await h.state.runs()).recentRuns(OWNER, { limit: 1 });
  return run!.runId;
}

async function drafted(h: Harness, runId: string, page: string): Promise<string | undefined> {
  const runs = await h.state.runs();
  const names = (await runs.status(runId)).artifacts.map((artifact) => artifact.name);
  if (!names.includes(`drafts/${page}.md`)) return undefined;
  return Buffer.from((await runs.artifact(runId, `drafts/${page}.md`)).bytes).toString('utf8');
}

describe.each(DIALECTS)('a model-drafting task asking the client model (%s)', (dialect) => {
  it('asks for every page waiting, takes accepted answers through the verifier and completes as launch_start_run answers', async () => {
    const h = await freshHarness(dialect);
    await startModelTask(h, 'task-accept');
    const board = await boardOf(h);
    const asking = await settled(board, 'task-accept');
    expect(asking).toMatchObject({ status: 'input_required', tool: 'launch_start_run' });
    const requests = requestsOf(asking);
    expect(Object.keys(requests)).toEqual([`draft/r1/${PRODUCTS}`, `draft/r1/${DOCS}`]);
    const first = requests[`draft/r1/${PRODUCTS}`]!;
    expect(first).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 8192 } });
    // The brief's rules are the system prompt; the page's brief entry is the message.
    expect(first.params.systemPrompt).toContain('1. Write well.');
    expect(textOf(first)).toContain(`"page_id": "${PRODUCTS}"`);
    expect(textOf(first)).not.toContain('refused');

    expect(await board.update(ref('task-accept'), { [`draft/r1/${PRODUCTS}`]: sampled('Products.\n') })).toBe(
      true,
    );
    const runId = await runIdOf(h);
    expect(await drafted(h, runId, PRODUCTS)).toBe('Products.\n');
    expect(Object.keys(requestsOf(await settled(board, 'task-accept')))).toEqual([`draft/r1/${DOCS}`]);

    await board.update(ref('task-accept'), { [`draft/r1/${DOCS}`]: sampled('Docs.\n') });
    const done = await settled(board, 'task-accept');
    expect(done).toMatchObject({
      status: 'completed',
      outcome: { kind: 'output', output: { ok: true, run_id: runId, state: 'READY_FOR_PR' } },
    });
    const events = await (await h.state.runs()).events(runId);
    const accepted = events.flatMap((event) =>
      event.payload.accepted_page === undefined ? [] : [event.payload.accepted_page],
    );
    expect(accepted).toEqual([PRODUCTS, DOCS]);
  });

  it('asks again with the issues after a refusal, ignores stale and foreign answers, and falls back after the last round', async () => {
    const h = await freshHarness(dialect, { draftMaxRounds: 2 });
    await startModelTask(h, 'task-revise');
    const board = await boardOf(h);
    await settled(board, 'task-revise');
    const runId = await runIdOf(h);

    await board.update(ref('task-revise'), { [`draft/r1/${PRODUCTS}`]: sampled('Fine.\n__FIXME__\n') });
    const second = requestsOf(await settled(board, 'task-revise'));
    expect(Object.keys(second)).toEqual([`draft/r2/${PRODUCTS}`, `draft/r1/${DOCS}`]);
    const revise = textOf(second[`draft/r2/${PRODUCTS}`]);
    expect(revise).toContain('Your draft of round 1 was refused');
    expect(revise).toContain('- line 2 [UNCITED_FACT] "__FIXME__": Cite it or leave it out.');
    expect(await drafted(h, runId, PRODUCTS)).toBeUndefined();

    // An answer of round 1 again, another principal's update, and a key the run never made change nothing.
    await board.update(ref('task-revise'), { [`draft/r1/${PRODUCTS}`]: sampled('Fine.\n') });
    expect(
      await board.update(ref('task-revise', 'local:someone-else'), {
        [`draft/r2/${PRODUCTS}`]: sampled('Fine.\n'),
      }),
    ).toBe(false);
    await board.update(ref('task-revise'), { 'draft/r1/docs/nothing': sampled('Fine.\n'), other: 'x' });
    expect(await drafted(h, runId, PRODUCTS)).toBeUndefined();
    expect(Object.keys(requestsOf(await settled(board, 'task-revise')))).toEqual([
      `draft/r2/${PRODUCTS}`,
      `draft/r1/${DOCS}`,
    ]);

    // An answer that is no text is refused in its round, as a draft is: round 2 was the last one.
    await board.update(ref('task-revise'), {
      [`draft/r2/${PRODUCTS}`]: { role: 'assistant', content: { type: 'image' } },
    });
    expect(await drafted(h, runId, PRODUCTS)).toMatch(/^Extractive after 2 rounds: .*NOT_A_DRAFT/);
    const events = await (await h.state.runs()).events(runId);
    expect(events.at(-1)?.type).not.toBe('WORK_ITEM_FAILED');
    expect(events.find((event) => event.payload.fallback_page === PRODUCTS)?.payload).toMatchObject({
      refused_page: PRODUCTS,
      round: 2,
      issues: [{ code: 'NOT_A_DRAFT' }],
    });
    expect(Object.keys(requestsOf(await settled(board, 'task-revise')))).toEqual([`draft/r1/${DOCS}`]);

    // The tool path still takes a page meanwhile; the sampled answer for it then is stale.
    await (await h.state.runs()).submitDraft(runId, { page: DOCS, markdown: 'By the tool.\n' });
    await board.update(ref('task-revise'), { [`draft/r1/${DOCS}`]: sampled('By sampling.\n') });
    expect(await drafted(h, runId, DOCS)).toBe('By the tool.\n');
    expect(await settled(board, 'task-revise')).toMatchObject({
      status: 'completed',
      outcome: { kind: 'output', output: { state: 'READY_FOR_PR' } },
    });
  });

  it('refuses an answer over LAUNCH_MAX_DRAFT_BYTES in its round, without verifying it', async () => {
    const h = await freshHarness(dialect, { maxDraftBytes: 1024 });
    await startModelTask(h, 'task-large');
    const board = await boardOf(h);
    await settled(board, 'task-large');
    await board.update(ref('task-large'), { [`draft/r1/${DOCS}`]: sampled('é'.repeat(513)) });
    const requests = requestsOf(await settled(board, 'task-large'));
    expect(textOf(requests[`draft/r2/${DOCS}`])).toContain(
      '[DRAFT_TOO_LARGE] "": The draft is 1026 bytes; a page may have 1024 at most',
    );
  });

  it('keeps the rounds and the last issues across a restart, on the other store', async () => {
    const dataDir = cleanup.folder('sampling');
    const storage = await storageFor(dialect);
    const first = await harnessOn(storage, dataDir);
    try {
      await startModelTask(first, 'task-restart');
      const board = await boardOf(first);
      await settled(board, 'task-restart');
      await board.update(ref('task-restart'), { [`draft/r1/${DOCS}`]: sampled('__FIXME__ here.\n') });
    } finally {
      await first.close();
    }
    const second = cleanup.kept(await harnessOn(storage, dataDir));
    const board = await boardOf(second);
    const asking = await settled(board, 'task-restart');
    const requests = requestsOf(asking);
    expect(Object.keys(requests)).toEqual([`draft/r1/${PRODUCTS}`, `draft/r2/${DOCS}`]);
    expect(textOf(requests[`draft/r2/${DOCS}`])).toContain('[UNCITED_FACT] "__FIXME__ here."');
    await board.update(ref('task-restart'), {
      [`draft/r1/${PRODUCTS}`]: sampled('Products.\n'),
      [`draft/r2/${DOCS}`]: sampled('Docs.\n'),
    });
    expect(await settled(board, 'task-restart')).toMatchObject({ status: 'completed' });
  });

  it('tasks/cancel while it asks for drafts cancels the run as launch_cancel does', async () => {
    const h = await freshHarness(dialect);
    await startModelTask(h, 'task-cancel');
    const board = await boardOf(h);
    expect(await settled(board, 'task-cancel')).toMatchObject({ status: 'input_required' });
    expect(await board.cancel(ref('task-cancel'))).toBe(true);
    expect(await board.get(ref('task-cancel'))).toMatchObject({ status: 'cancelled' });
    expect((await (await h.state.runs()).status(await runIdOf(h))).state).toBe('CANCELLED');
  });

  it('a task whose request did not declare sampling completes in DRAFTING as before, and ignores answers', async () => {
    const h = await freshHarness(dialect);
    await startModelTask(h, 'task-plain', {});
    const board = await boardOf(h);
    const done = await settled(board, 'task-plain');
    const runId = await runIdOf(h);
    expect(done).toMatchObject({
      status: 'completed',
      outcome: { kind: 'output', output: { state: 'DRAFTING' } },
    });
    expect(done.inputRequests).toBeUndefined();
    expect(await board.update(ref('task-plain'), { [`draft/r1/${DOCS}`]: sampled('Docs.\n') })).toBe(true);
    expect(await drafted(h, runId, DOCS)).toBeUndefined();
  });
});
