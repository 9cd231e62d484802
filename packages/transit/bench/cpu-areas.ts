// Where a server's CPU goes: the server runs under `node --cpu-prof`, a client makes warm-up calls and then the
// measured calls, and the samples taken between the first and the last measured call are summed by area (our
// code, the MCP SDK, zod, undici, GC...) and by function, per call. Used by `profile` (one bin, in depth) and by
// `bench` (the bin beside the bare SDK tool, so that the report shows which part of a missed target is ours).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { startServer, type ServerStart } from './servers.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
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
  for (const [start, file] of starts) {
    if (start > lineNumber) break;
    source = file;
  }
  return source;
}

function areaOf(node: ProfileNode): string {
  const { url, functionName, lineNumber } = node.callFrame;
  const key = url === '' ? functionName : sourceOf(url, lineNumber);
  return AREAS.find(([, pattern]) => pattern.test(key))?.[0] ?? (url === '' ? 'native' : 'Switchyard');
}

export interface CpuSummary {
  calls: number;
  /** Sampled busy time (not idle) per call, ms. */
  busyMsPerCall: number;
  /** Busy time per call by area, largest first. */
  areas: [area: string, msPerCall: number][];
  /** Self time per call by function, largest first. */
  functions: [name: string, msPerCall: number][];
}

/** Self time of the samples taken within [fromUs, toUs] (the monotonic clock V8 and process.hrtime share). */
function summarise(profile: CpuProfile, calls: number, fromUs: number, toUs: number): CpuSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]!;
    if (at < fromUs || at > toUs) return;
    const node = byId.get(id)!;
    const ms = profile.timeDeltas[i]! / 1000;
    const area = areaOf(node);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    if (area === 'idle') return;
    const { functionName, url, lineNumber } = node.callFrame;
    const module = sourceOf(url, lineNumber).replace(/^.*node_modules\//, '');
    const name = `${functionName || '(anonymous)'} ${module} (${path.basename(url)}:${lineNumber + 1})`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  });
  areas.delete('idle');
  const perCall = (entries: Map<string, number>) =>
    [...entries].map(([key, ms]): [string, number] => [key, ms / calls]).sort((a, b) => b[1] - a[1]);
  const byArea = perCall(areas);
  return {
    calls,
    busyMsPerCall: byArea.reduce((sum, [, ms]) => sum + ms, 0),
    areas: byArea,
    functions: perCall(functions),
  };
}

export interface ProfileRun {
  server: ServerStart;
  warmup: number;
  calls: number;
  /** One call through the connected client. */
  call: (client: Client) => Promise<void>;
}

/** Starts the server under --cpu-prof, makes the calls, and sums the measured calls' samples. */
export async function profileCalls(run: ProfileRun): Promise<CpuSummary & { file: string }> {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-cpuprofile-'));
  const server = await startServer(run.server, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  let fromUs: number;
  let toUs: number;
  try {
    for (let i = 0; i < run.warmup; i += 1) await run.call(server.client);
    fromUs = Number(process.hrtime.bigint() / 1000n);
    for (let i = 0; i < run.calls; i += 1) await run.call(server.client);
    toUs = Number(process.hrtime.bigint() / 1000n);
  } finally {
    await server.close();
  }
  const { file, profile } = await writtenProfile(profileDir);
  return { ...summarise(profile, run.calls, fromUs, toUs), file };
}

/**
 * The profile of the calls, once the server has written it as it exits: the largest file, as a client may
 * spawn the command more than once.
 */
async function writtenProfile(profileDir: string): Promise<{ file: string; profile: CpuProfile }> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const [file] = fs
      .readdirSync(profileDir)
      .filter((name) => name.endsWith('.cpuprofile'))
      .map((name) => path.join(profileDir, name))
      .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
    try {
      if (file !== undefined)
        return { file, profile: JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile };
    } catch {
      // Still being written.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no profile written in ${profileDir}`);
}
