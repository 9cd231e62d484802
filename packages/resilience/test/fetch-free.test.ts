// createUpstreamClient builds no web Request, Headers or Response, and nothing this package classifies or
// redacts names those globals: Node's fetch implementation (about 17 MiB of memory) never loads in a process
// that does not use fetch itself. Run in a fresh process against the built package (what a server imports).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js'),
).href;

/** Answers: JSON, a 503 with Retry-After, a redirect to the JSON, a body past the limit, a reset connection. */
const SERVER = `
const http = process.getBuiltinModule('node:http');
const server = http.createServer((request, response) => {
  const route = request.url.split('?')[0];
  if (route === '/ok') return response.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
  if (route === '/busy') return response.writeHead(503, { 'retry-after': '1' }).end('{"message":"busy"}');
  if (route === '/moved') return response.writeHead(302, { location: '/ok' }).end();
  if (route === '/large') return response.writeHead(200).end('x'.repeat(4096));
  request.socket.destroy();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = 'http://127.0.0.1:' + server.address().port + '/';
`;

/** Each route's outcome (the JSON, or the error code) and whether Node's fetch had loaded by the end. */
function runInFreshProcess(sendWith: 'client' | 'fetch'): { outcomes: string[]; fetchLoaded: boolean } {
  const script = `${SERVER}
const resilience = await import(${JSON.stringify(DIST)});
const options = { upstream: 'Test', baseUrl, secretQuery: { key: 'fetch-free-secret-1234' }, maxResponseBytes: 1024 };
const send = ${sendWith === 'client' ? 'resilience.createUpstreamClient(options)' : 'resilience.createUpstreamFetch(options)'};
const outcomes = [];
for (const route of ['ok', 'busy', 'moved', 'large', 'reset']) {
  try {
    const answer = await resilience.assertOk(await send(route), { upstream: 'Test' });
    outcomes.push(JSON.stringify(await resilience.readJson(answer, { upstream: 'Test' })));
  } catch (error) {
    outcomes.push(resilience.classifyFailure(error, { upstream: 'Test' }).kind);
    resilience.redactError(error);
  }
}
server.close();
const fetchLoaded = process.moduleLoadList.some((name) => name.includes('internal/deps/undici'));
process.stdout.write(JSON.stringify({ outcomes, fetchLoaded }));
`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as { outcomes: string[]; fetchLoaded: boolean };
}

describe("upstream requests without Node's fetch implementation", () => {
  it('createUpstreamClient answers, classifies and redacts every outcome without loading it', () => {
    const { outcomes, fetchLoaded } = runInFreshProcess('client');
    expect(outcomes).toEqual(['{"a":1}', 'upstream-error', '{"a":1}', 'upstream-error', 'network-error']);
    expect(fetchLoaded).toBe(false);
  });

  it('createUpstreamFetch, the same outcomes as web Responses, does load it (what the test above would see)', () => {
    const { outcomes, fetchLoaded } = runInFreshProcess('fetch');
    expect(outcomes).toEqual(['{"a":1}', 'upstream-error', '{"a":1}', 'upstream-error', 'network-error']);
    expect(fetchLoaded).toBe(true);
  });
});
