// Profile: the built switchyard-transit bin under `node --cpu-prof`, called PROFILE_CALLS times (default 10,000)
// with one tool over stdio against the loopback stand-ins. Writes the .cpuprofile (open it in Chrome DevTools or
// speedscope for the flame graph) and prints where the server's CPU went: self time by area (our code, the MCP
// SDK, zod, undici/fetch, JSON, GC) and the hottest functions. Needs a build.
//   pnpm --filter @switchyard/transit profile [tool] [calls]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor } from '@switchyard/server-kit/testing';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import {
  ARRIVALS_ARGS,
  DEPARTURES_ARGS,
  FIND_STOPS_ARGS,
  JOURNEY_ARGS,
  LINE_STATUS_ARGS,
  LONDON_STOPS_ARGS,
  serverEnv,
  TRIP_ARGS,
} from './upstream-requests.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'bin', 'switchyard-transit.js');
const ARGS: Record<string, Record<string, unknown>> = {
  planJourney: JOURNEY_ARGS,
  get_departures: DEPARTURES_ARGS,
  plan_trip: TRIP_ARGS,
  find_stops: FIND_STOPS_ARGS,
  get_london_arrivals: ARRIVALS_ARGS,
  get_line_status: LINE_STATUS_ARGS,
  find_london_stops: LONDON_STOPS_ARGS,
};
const tool = process.argv[2] ?? 'get_departures';
const calls = Number(process.argv[3] ?? process.env.PROFILE_CALLS ?? 10_000);
if (ARGS[tool] === undefined) throw new Error(`unknown tool ${tool}; one of ${Object.keys(ARGS).join(', ')}`);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Which part of the process a frame belongs to, by the module it runs in (see sourceOf). */
const AREAS: [string, RegExp][] = [
  ['GC', /^\(garbage collector\)$/],
  ['idle', /^\((idle|program)\)$/],
  ['zod', /\/zod@/],
  ['MCP SDK', /\/@modelcontextprotocol\+/],
  ['undici', /\/undici@|node:internal\/deps\/undici/],
  ['graphql', /\/graphql(-request)?@/],
  ['other libraries', /node_modules/],
  ['node internals', /^node:|^internal\//],
];

const moduleStarts = new Map<string, [number, string][]>();

/**
 * The module a line of a script belongs to. The bins are bundled: esbuild writes `// <path>` before each
 * module it concatenates, so a bundled chunk's line maps back to its package or our own file.
 */
function sourceOf(url: string, lineNumber: number): string {
  if (!url.startsWith('file://')) return url;
  let starts = moduleStarts.get(url);
  if (starts === undefined) {
    starts = [];
    fs.readFileSync(new URL(url), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const header = /^\/\/ (\S+\.[cm]?[jt]s)$/.exec(line);
        if (header !== null) starts!.push([index, header[1]!]);
      });
    moduleStarts.set(url, starts);
  }
  let source = url;
  for (const [start, path] of starts) {
    if (start > lineNumber) break;
    source = path;
  }
  return source;
}

function areaOf(node: ProfileNode): string {
  const { url, functionName, lineNumber } = node.callFrame;
  const key = url === '' ? functionName : sourceOf(url, lineNumber);
  return AREAS.find(([, pattern]) => pattern.test(key))?.[0] ?? (url === '' ? 'native' : 'Switchyard');
}

function summarise(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + profile.timeDeltas[i]! / 1000));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const node = byId.get(id)!;
    areas.set(areaOf(node), (areas.get(areaOf(node)) ?? 0) + ms);
    const { functionName, url, lineNumber } = node.callFrame;
    const module = sourceOf(url, lineNumber).replace(/^.*node_modules\//, '');
    const name = `${functionName || '(anonymous)'} ${module} (${path.basename(url)}:${lineNumber + 1})`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const busy = [...areas].filter(([area]) => area !== 'idle').reduce((sum, [, ms]) => sum + ms, 0);
  console.log(
    `${tool}: ${calls} calls; sampled busy time ${busy.toFixed(0)} ms, ${(busy / calls).toFixed(3)} ms per call`,
  );
  for (const [area, ms] of [...areas].sort((a, b) => b[1] - a[1])) {
    if (area === 'idle') continue;
    console.log(
      `  ${area.padEnd(16)} ${(ms / calls).toFixed(3)} ms/call  ${((100 * ms) / busy).toFixed(1)}%`,
    );
  }
  console.log('hottest functions (self time per call):');
  for (const [name, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`  ${(ms / calls).toFixed(4)} ms  ${name}`);
  }
}

const tfl = await startTflMock();
const digitransit = await startDigitransitMock();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-profile-'));
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-cpuprofile-'));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, BIN],
  env: serverEnv(
    {
      tflUrl: tfl.url,
      tflKey: 'profile-tfl-key-0001',
      routingUrl: digitransit.routingUrl,
      geocodingUrl: digitransit.geocodingUrl,
      digitransitKey: 'profile-dt-key-0002',
    },
    dataDir,
  ),
  stderr: 'inherit',
});
const client = clientFor('modern', 'profile');
await client.connect(transport);
try {
  for (let i = 0; i < calls; i += 1) {
    const result = await client.callTool({ name: tool, arguments: ARGS[tool] });
    if (result.isError === true)
      throw new Error(`${tool} failed: ${JSON.stringify(result.structuredContent)}`);
  }
} finally {
  await client.close();
  await tfl.close();
  await digitransit.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
// The server writes its profile as it exits, after stdin closes. The client may have spawned the command more
// than once (a probe of the protocol era); the profile of the calls is the largest.
await new Promise((resolve) => setTimeout(resolve, 1000));
const written = fs
  .readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => path.join(profileDir, name))
  .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
if (written.length === 0) throw new Error(`no profile written in ${profileDir}`);
const file = written[0]!;
summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile);
console.log(`profile: ${file}`);
