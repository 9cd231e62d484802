// Server CPU per call split by thread and by user/system time: the bin (and any other builds' bins), and the
// bare SDK tool, called with one tool one call at a time over stdio or HTTP, in interleaved rounds. The
// benchmark's cpu/call is the sum of these columns; this shows which part differs: the main thread's own work,
// V8's helper threads (parallel scavenges, concurrent marking and compilation) or the kernel's.
//   pnpm --filter @switchyard/transit cpu:threads [tool] [stdio|http]
// CPU_BINS: comma-separated bins to compare (default: this build's); CPU_SETTINGS: comma-separated NAME=VALUE
// settings to run the first bin with as well, one variant each (SWITCHYARD_MAX_YOUNG_GENERATION_MB=0, say);
// CPU_ROUNDS (default 8) of CPU_CALLS (default 500) calls per server, after 300 warm-up calls each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import { startServer } from './servers.js';
import { CASE_ARGS, serverEnv, toolOfCase } from './upstream-requests.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tool = process.argv[2] ?? 'get_line_status';
const transport = process.argv[3] === 'http' ? 'http' : 'stdio';
const bins = (process.env.CPU_BINS ?? path.join(here, '..', 'bin', 'switchyard-transit.js')).split(',');
const settings = (process.env.CPU_SETTINGS ?? '').split(',').filter(Boolean);
const ROUNDS = Number(process.env.CPU_ROUNDS ?? 8);
const CALLS = Number(process.env.CPU_CALLS ?? 500);
const WARMUP = 300;
if (CASE_ARGS[tool] === undefined)
  throw new Error(`unknown tool ${tool}; one of ${Object.keys(CASE_ARGS).join(', ')}`);

/** User and system ms by thread name (threads of one name summed), from /proc (10 ms ticks). */
type ThreadTimes = Map<string, { user: number; system: number }>;
function threadTimes(pid: number): ThreadTimes {
  const times: ThreadTimes = new Map();
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const sum = times.get(name) ?? { user: 0, system: 0 };
    sum.user += Number(fields[11]) * 10;
    sum.system += Number(fields[12]) * 10;
    times.set(name, sum);
  }
  return times;
}

function addDifference(total: ThreadTimes, before: ThreadTimes, after: ThreadTimes): void {
  for (const [name, now] of after) {
    const then = before.get(name) ?? { user: 0, system: 0 };
    const sum = total.get(name) ?? { user: 0, system: 0 };
    sum.user += now.user - then.user;
    sum.system += now.system - then.system;
    total.set(name, sum);
  }
}

const tfl = await startTflMock();
const digitransit = await startDigitransitMock();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-cpu-threads-'));
const env = serverEnv(
  {
    tflUrl: tfl.url,
    tflKey: 'threads-tfl-key-0001',
    routingUrl: digitransit.routingUrl,
    geocodingUrl: digitransit.geocodingUrl,
    digitransitKey: 'threads-dt-key-0002',
  },
  dataDir,
);
const variants = [
  ...bins.map((bin, index) => ({ label: `bin ${index}`, args: [bin], bare: false, env })),
  ...settings.map((setting) => {
    const [name, value] = setting.split('=');
    if (name === undefined || value === undefined)
      throw new Error(`CPU_SETTINGS: ${setting} is not NAME=VALUE`);
    return { label: `bin 0, ${setting}`, args: [bins[0]!], bare: false, env: { ...env, [name]: value } };
  }),
  { label: 'bare SDK tool', args: ['--import', 'tsx', path.join(here, 'bare-server.ts')], bare: true, env },
];
const servers = await Promise.all(
  variants.map((v) => startServer({ label: v.label, transport, args: v.args, env: v.env, era: 'modern' })),
);
try {
  const callOn = async (index: number): Promise<void> => {
    const { bare } = variants[index]!;
    const result = await servers[index]!.client.callTool({
      name: toolOfCase(tool, bare),
      arguments: bare ? {} : CASE_ARGS[tool],
    });
    if (result.isError === true)
      throw new Error(`${tool} failed: ${JSON.stringify(result.structuredContent)}`);
  };
  for (let index = 0; index < servers.length; index += 1)
    for (let n = 0; n < WARMUP; n += 1) await callOn(index);
  const totals = variants.map((): ThreadTimes => new Map());
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let index = 0; index < servers.length; index += 1) {
      const before = threadTimes(servers[index]!.pid);
      for (let n = 0; n < CALLS; n += 1) await callOn(index);
      addDifference(totals[index]!, before, threadTimes(servers[index]!.pid));
    }
  }
  const calls = ROUNDS * CALLS;
  const perCall = (ms: number): string => (ms / calls).toFixed(3);
  console.log(`${tool} over ${transport}, ${calls} calls one at a time per server; ms of CPU per call`);
  variants.forEach((variant, index) => {
    const threads = [...totals[index]!].filter(([, t]) => t.user + t.system > 0);
    const user = threads.reduce((sum, [, t]) => sum + t.user, 0);
    const system = threads.reduce((sum, [, t]) => sum + t.system, 0);
    const byThread = threads.map(([name, t]) => `${name} user ${perCall(t.user)} sys ${perCall(t.system)}`);
    console.log(
      `  ${variant.label.padEnd(24)} total ${perCall(user + system)}  user ${perCall(user)}  sys ${perCall(system)}  | ${byThread.join(' | ')}`,
    );
  });
} finally {
  await Promise.all(servers.map((server) => server.close()));
  await tfl.close();
  await digitransit.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
