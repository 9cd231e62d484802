// A model-drafting launch run whose task asks the client's model for its pages (issue #37, item 3b) end to
// end: the built `switchyard` bin, a task-aware client declaring the Tasks extension and `sampling`, whose
// sampling handler is a scripted writer (no model); over stdio on SQLite and over HTTP on two replicas sharing
// PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { exampleRunConfig, materializeExampleRepos, quotingDraft } from '@switchyard/launch-runs';
import {
  DECLARES_TASKS,
  overHttp,
  overStdio,
  TaskRequester,
  type InputAnswerer,
  type SendRequest,
} from '@switchyard/server-kit/testing';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanEnv,
  requireBuiltBin,
  runBin,
  spawnHttpServer,
  tempDir,
  type SpawnedServer,
} from './helpers.js';
import { launchTaskEnv, taskAnswerOf } from './launch-task-helpers.js';

type Json = Record<string, unknown>;

/** A page's writing brief entry, as far as the scripted writer reads it. */
type BriefPage = Parameters<typeof quotingDraft>[0] & { page_id: string };

const DECLARES_SAMPLING = { ...DECLARES_TASKS, sampling: {} };
const FABRICATED = 'It retries a failed request 17 times.';
const reposDir = tempDir('switchyard-sampling-repos-');
let runConfig: Json;

/** The page's brief entry, as the request's message carries it (in a ````json block). */
function briefPageOf(text: string): BriefPage {
  const start = text.indexOf('````json\n') + '````json\n'.length;
  return JSON.parse(text.slice(start, text.indexOf('\n````', start))) as BriefPage;
}

/**
 * The scripted writer: a sampling handler answering from the page's brief. The first page it is asked for
 * gets a fabricated sentence in its first `fabricatedRounds` answers; every other answer is faithful. It keeps
 * every request it was sent, by key.
 */
class ScriptedWriter {
  readonly asked = new Map<string, string>();
  private fabricating: string | undefined;

  constructor(private readonly fabricatedRounds: number) {}

  readonly answer: InputAnswerer = async (request, key) => {
    expect(request.method).toBe('sampling/createMessage');
    const text = ((request.params.messages as Json[])[0]!.content as { text: string }).text;
    this.asked.set(key, text);
    const page = briefPageOf(text);
    this.fabricating ??= page.page_id;
    const round = Number(/^draft\/r(\d+)\//.exec(key)![1]);
    let body = quotingDraft(page);
    if (page.page_id === this.fabricating && round <= this.fabricatedRounds) {
      body += `\n${FABRICATED} <!-- claim_id: ${page.evidence[0]!.claim_id} -->\n`;
    }
    return { role: 'assistant', content: { type: 'text', text: body }, model: 'scripted-writer' };
  };

  /** The page it fabricated on. */
  get fabricated(): string {
    return this.fabricating!;
  }
}

type Provenance = {
  pages: Record<string, { written_by: string; via?: string; fallback?: { rounds: number; reason: string } }>;
};

async function provenanceOf(send: SendRequest, runId: unknown): Promise<Provenance> {
  const plain = new TaskRequester(send, {});
  const answer = await plain.callTool('launch_get_artifact', {
    run_id: runId,
    artifact_name: 'draft_provenance.json',
  });
  const artifact = (answer.structuredContent as Json).artifact as { content: string };
  return JSON.parse(artifact.content) as Provenance;
}

/** Starts a model-drafting run as a task and follows it, the writer answering, to its end. */
async function writtenRun(send: SendRequest, writer: ScriptedWriter): Promise<Json> {
  const requester = new TaskRequester(send, DECLARES_SAMPLING, writer.answer);
  const created = await requester.callTool('launch_start_run', {
    run_config: { ...runConfig, drafting: 'model' },
  });
  expect(created).toMatchObject({ resultType: 'task' });
  return taskAnswerOf(await requester.untilSettled(String(created.taskId), 90_000));
}

beforeAll(async () => {
  runConfig = exampleRunConfig(await materializeExampleRepos(path.join(reposDir, 'example')));
}, 60_000);

describe('a launch task asking the client model over stdio (SQLite)', () => {
  let child: ChildProcess;
  let send: SendRequest;

  beforeAll(() => {
    child = spawn(process.execPath, [requireBuiltBin()], {
      env: cleanEnv(
        launchTaskEnv(reposDir, {
          SWITCHYARD_DATA_DIR: tempDir('switchyard-sampling-stdio-'),
          LAUNCH_DRAFT_MAX_ROUNDS: '2',
        }),
      ),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    send = overStdio(child.stdin!, child.stdout!);
  });
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('accepts every page on the first try and continues as the tool path does', async () => {
    const writer = new ScriptedWriter(0);
    const answer = await writtenRun(send, writer);
    expect(['VALIDATING', 'READY_FOR_PR']).toContain(answer.state);
    const provenance = await provenanceOf(send, answer.run_id);
    const pages = Object.keys(provenance.pages);
    expect(pages.length).toBeGreaterThan(1);
    expect([...writer.asked.keys()].sort()).toEqual(pages.map((page) => `draft/r1/${page}`).sort());
    for (const page of pages)
      expect(provenance.pages[page]).toMatchObject({ written_by: 'model', via: 'sampling' });
  }, 120_000);

  it('asks for a revision carrying the issues of a refused draft, and accepts it', async () => {
    const writer = new ScriptedWriter(1);
    const answer = await writtenRun(send, writer);
    const revision = writer.asked.get(`draft/r2/${writer.fabricated}`);
    expect(revision).toContain('Your draft of round 1 was refused');
    expect(revision).toContain(`[UNSUPPORTED_NUMBER] ${JSON.stringify(FABRICATED)}`);
    expect(writer.asked.has(`draft/r3/${writer.fabricated}`)).toBe(false);
    const provenance = await provenanceOf(send, answer.run_id);
    expect(provenance.pages[writer.fabricated]).toMatchObject({ written_by: 'model', via: 'sampling' });
  }, 120_000);

  it('falls back to the extractive draft after LAUNCH_DRAFT_MAX_ROUNDS refusals, saying why', async () => {
    const writer = new ScriptedWriter(Number.POSITIVE_INFINITY);
    const answer = await writtenRun(send, writer);
    expect(['VALIDATING', 'READY_FOR_PR']).toContain(answer.state);
    expect(writer.asked.has(`draft/r2/${writer.fabricated}`)).toBe(true);
    expect(writer.asked.has(`draft/r3/${writer.fabricated}`)).toBe(false);
    const { pages } = await provenanceOf(send, answer.run_id);
    expect(pages[writer.fabricated]).toMatchObject({ written_by: 'extractive', fallback: { rounds: 2 } });
    expect(pages[writer.fabricated]!.fallback!.reason).toContain('UNSUPPORTED_NUMBER');
    const others = Object.keys(pages).filter((page) => page !== writer.fabricated);
    for (const page of others) expect(pages[page]).toMatchObject({ written_by: 'model', via: 'sampling' });
  }, 120_000);

  it('gives a client without sampling the task it had before: completed while the run waits for drafts', async () => {
    const requester = new TaskRequester(send, DECLARES_TASKS, new ScriptedWriter(0).answer);
    const created = await requester.callTool('launch_start_run', {
      run_config: { ...runConfig, drafting: 'model' },
    });
    expect(taskAnswerOf(await requester.untilSettled(String(created.taskId), 90_000))).toMatchObject({
      state: 'DRAFTING',
    });
  }, 120_000);
});

describe('a launch task asking the client model on two replicas sharing PostgreSQL', () => {
  let postgres: TestPostgres;
  const replicas: SpawnedServer[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
    const env = launchTaskEnv(reposDir, { SWITCHYARD_DATABASE_URL: await postgres.createDatabase() });
    const migrated = await runBin(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    for (let n = 0; n < 2; n += 1)
      replicas.push(
        await spawnHttpServer({ ...env, SWITCHYARD_DATA_DIR: tempDir('switchyard-sampling-replica-') }),
      );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await postgres?.stop();
  });

  it('keeps the rounds when the replica that took a refused draft is killed: the other asks for the revision', async () => {
    const [first, second] = replicas as [SpawnedServer, SpawnedServer];
    const writer = new ScriptedWriter(1);
    const onFirst = new TaskRequester(overHttp(first.url), DECLARES_SAMPLING, writer.answer);
    const created = await onFirst.callTool('launch_start_run', {
      run_config: { ...runConfig, drafting: 'model' },
    });
    const taskId = String(created.taskId);
    let asking = await onFirst.request('tasks/get', { taskId });
    while (asking.status === 'working') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      asking = await onFirst.request('tasks/get', { taskId });
    }
    expect(asking.status, JSON.stringify(asking)).toBe('input_required');
    // Every page answered on the first replica: all but the fabricated one accepted there.
    await onFirst.answerInput(taskId, asking.inputRequests as Record<string, Json>);
    first.child.kill('SIGKILL');

    const onSecond = new TaskRequester(overHttp(second.url), DECLARES_SAMPLING, writer.answer);
    const revising = await onSecond.request('tasks/get', { taskId });
    expect(revising.status).toBe('input_required');
    const key = `draft/r2/${writer.fabricated}`;
    expect(Object.keys(revising.inputRequests as Json)).toEqual([key]);
    const answer = taskAnswerOf(await onSecond.untilSettled(taskId, 90_000));
    expect(['VALIDATING', 'READY_FOR_PR']).toContain(answer.state);
    expect(writer.asked.get(key)).toContain('[UNSUPPORTED_NUMBER]');
    const { pages } = await provenanceOf(overHttp(second.url), answer.run_id);
    expect(pages[writer.fabricated]).toMatchObject({ written_by: 'model', via: 'sampling' });
  }, 180_000);
});
