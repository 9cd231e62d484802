// notifications/tasks end to end (issue #36): the built `switchyard` bin over HTTP on SQLite, a client that
// declares the Tasks extension listens on a launch task and is told of its completion, with no tasks/get.
import path from 'node:path';
import { exampleRunConfig, materializeExampleRepos } from '@switchyard/launch-runs';
import { modernRequest, overHttp, postModern, TaskRequester } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHttpServer, tempDir, type SpawnedServer } from './helpers.js';
import { launchTaskEnv, taskAnswerOf } from './launch-task-helpers.js';

type Json = Record<string, unknown>;

const reposDir = tempDir('switchyard-task-listen-repos-');
let runConfig: Json;
let server: SpawnedServer;

beforeAll(async () => {
  runConfig = exampleRunConfig(await materializeExampleRepos(path.join(reposDir, 'example')));
  server = await spawnHttpServer(
    launchTaskEnv(reposDir, { SWITCHYARD_DATA_DIR: tempDir('switchyard-task-listen-') }),
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** Every JSON-RPC message of an SSE body, in order. */
function sseMessages(body: string): Json[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as Json);
}

describe('a listen for task notifications on a launch task', () => {
  it('acknowledges the task and sends its completion, the tool’s answer inlined, then ends', async () => {
    const requester = new TaskRequester(overHttp(server.url));
    const created = await requester.callTool('launch_start_run', { run_config: runConfig });
    expect(created).toMatchObject({ resultType: 'task' });
    const taskId = String(created.taskId);
    const listen = modernRequest(7, 'subscriptions/listen', { notifications: { taskIds: [taskId] } });
    // The stream ends by itself once the task is terminal: the whole body is the listen.
    const response = await postModern(server.url, listen);
    expect(response.status).toBe(200);
    const messages = sseMessages(response.body);
    expect(messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });
    const notes = messages.filter((message) => message.method === 'notifications/tasks');
    expect(notes.length).toBeGreaterThan(0);
    const last = notes.at(-1)!.params as Json;
    const answer = taskAnswerOf(last);
    expect(answer).toMatchObject({ ok: true, run_id: expect.any(String) });
    expect(['VALIDATING', 'READY_FOR_PR']).toContain(answer.state);
    expect(messages.at(-1)).toMatchObject({ id: 7, result: { resultType: 'complete' } });
    // What was sent is what tasks/get answers now.
    const { _meta: _stamp, ...sent } = last;
    const { resultType: _kind, _meta: _envelope, ...got } = await requester.request('tasks/get', { taskId });
    expect(sent).toEqual(got);
  }, 120_000);
});
