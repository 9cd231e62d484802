// What one call allocates in the whole server process: the built switchyard-transit bin (or `bare`, the bare SDK
// tool of the same name, or ALLOC_BIN, another build's bin) over stdio, 1,000 calls after 300 warm-up calls left
// out, under the inspector's sampling heap profiler with collected objects included (bench/heap-sampling.mjs).
// Prints KiB per call in all, by the function that allocated (self) and by the functions below which it did
// (inclusive); `plan_trip/names` is plan_trip between two names. Unlike CPU time, the figure does not move with
// the machine's load. Needs a build.
//   pnpm --filter @switchyard/transit profile:alloc [tool] [bare]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import { startServer } from './servers.js';
import { CASE_ARGS, serverEnv, toolOfCase } from './upstream-requests.js';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
const WARMUP = 300;
const CALLS = 1000;
const tool = process.argv[2] ?? 'plan_trip';
const bare = process.argv[3] === 'bare';
const bin = process.env.ALLOC_BIN ?? path.join(here, '..', 'bin', 'switchyard-transit.js');
if (CASE_ARGS[tool] === undefined)
  throw new Error(`unknown tool ${tool}; one of ${Object.keys(CASE_ARGS).join(', ')}`);

const tfl = await startTflMock();
const digitransit = await startDigitransitMock();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-allocation-'));
const profileFile = path.join(dataDir, 'heap-profile.json');
try {
  const targets = {
    tflUrl: tfl.url,
    tflKey: 'profile-tfl-key-0001',
    routingUrl: digitransit.routingUrl,
    geocodingUrl: digitransit.geocodingUrl,
    digitransitKey: 'profile-dt-key-0002',
  };
  const server = await startServer(
    {
      label: 'allocation',
      transport: 'stdio',
      era: 'modern',
      args: bare ? ['--import', 'tsx', path.join(here, 'bare-server.ts')] : [bin],
      env: { ...serverEnv(targets, dataDir), HEAP_PROFILE_FILE: profileFile },
    },
    ['--import', path.join(here, 'heap-sampling.mjs')],
  );
  const call = async (): Promise<void> => {
    const name = toolOfCase(tool, bare);
    const result = await server.client.callTool({ name, arguments: bare ? {} : CASE_ARGS[tool] });
    if (result.isError === true)
      throw new Error(`${tool} failed: ${JSON.stringify(result.structuredContent)}`);
  };
  for (let i = 0; i < WARMUP; i += 1) await call();
  process.kill(server.pid, 'SIGUSR2');
  await sleep(200);
  for (let i = 0; i < CALLS; i += 1) await call();
  await server.close();
  // The server writes the profile as it exits, after the client closed its stdin.
  for (let waited = 0; !fs.existsSync(profileFile) && waited < 5000; waited += 100) await sleep(100);
  report(JSON.parse(fs.readFileSync(profileFile, 'utf8')) as { head: ProfileNode });
} finally {
  await tfl.close();
  await digitransit.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function report(profile: { head: ProfileNode }): void {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const walk = (node: ProfileNode, above: Set<string>): number => {
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${path.basename(url)}:${lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + node.selfSize);
    const outermost = !above.has(name);
    above.add(name);
    const total = node.children.reduce((sum, child) => sum + walk(child, above), node.selfSize);
    if (outermost) {
      above.delete(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + total);
    }
    return total;
  };
  const total = walk(profile.head, new Set());
  const kib = (bytes: number): string => (bytes / CALLS / 1024).toFixed(1).padStart(7);
  const top = (sizes: Map<string, number>, count: number): string[] =>
    [...sizes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, bytes]) => `${kib(bytes)}  ${name}`);
  console.log(
    [
      `${tool} over stdio${bare ? ', the bare SDK tool' : ''}: ${kib(total).trim()} KiB per call`,
      'allocated by (self, KiB per call):',
      ...top(self, 25),
      'allocated below (inclusive):',
      ...top(inclusive, 40),
    ].join('\n'),
  );
}
