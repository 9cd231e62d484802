// Where a process's CPU went, for the benchmarks: a server run under `node --cpu-prof`, and its samples within
// a window (the measured calls, or spawn to the first answer) summed by area (our code, the MCP SDK, zod,
// module loading, GC...) and by function. The window is on the monotonic clock V8's profiles share with
// `process.hrtime`, so the client process can mark it.
import fs from 'node:fs';
import path from 'node:path';
import { readWhenWritten } from './when-written.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** A `.cpuprofile` as V8 writes it. Times are microseconds on the monotonic clock. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Node's options for a profiled child: a sample every 100 µs (a start is a few hundred ms, a call about one),
 * written into `dir` as the process exits.
 */
export function cpuProfileArgs(dir: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100'];
}

/**
 * Time a process's threads have spent on a CPU (user and system), in milliseconds, summed from each thread's
 * /proc schedstat in nanoseconds: /proc/<pid>/stat counts in 10 ms ticks, which over a few hundred calls of a
 * cheap tool (about 250 ms of CPU) moves a per-call figure by up to 0.05 ms. A thread that has ended is no
 * longer counted; a server's threads (V8's workers, libuv's pool) live as long as it does. Linux only.
 */
export function processCpuMs(pid: number): number {
  let nanoseconds = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nanoseconds / 1e6;
}

/** Now, in microseconds on the clock the profiles use. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Which part of the process a frame belongs to, by the module it runs in (see sourceOf); first match wins. */
const AREAS: [string, RegExp][] = [
  ['GC', /^\(garbage collector\)$/],
  ['idle', /^\((idle|program)\)$/],
  ['zod', /\/zod@/],
  ['MCP SDK', /\/@modelcontextprotocol\+/],
  ['undici', /\/undici@|node:internal\/deps\/undici/],
  ['graphql', /\/graphql(-request)?@/],
  ['SQLite', /\/better-sqlite3@/],
  ['other libraries', /node_modules/],
  ['loading modules', /^node:internal\/modules\//],
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
  /** Sampled busy time (not idle) divided by `per`, ms. */
  busyMs: number;
  /** Sampled idle time (waiting for I/O or a timer) divided by `per`, ms. */
  idleMs: number;
  /** Busy time by area divided by `per`, largest first. */
  areas: [area: string, ms: number][];
  /** Self time by function divided by `per`, largest first. */
  functions: [name: string, ms: number][];
}

/**
 * Self time of the samples taken within [fromUs, toUs], divided by `per` (the number of calls in the window,
 * or 1 for a start).
 */
export function cpuByArea(
  profile: CpuProfile,
  window: { fromUs: number; toUs: number; per: number },
): CpuSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]!;
    if (at < window.fromUs || at > window.toUs) return;
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
  const idleMs = (areas.get('idle') ?? 0) / window.per;
  areas.delete('idle');
  const divided = (entries: Map<string, number>) =>
    [...entries].map(([key, ms]): [string, number] => [key, ms / window.per]).sort((a, b) => b[1] - a[1]);
  const byArea = divided(areas);
  return {
    busyMs: byArea.reduce((sum, [, ms]) => sum + ms, 0),
    idleMs,
    areas: byArea,
    functions: divided(functions),
  };
}

export interface WrittenProfile {
  file: string;
  profile: CpuProfile;
}

/**
 * The profiles in `dir` once their processes have written them as they exit, oldest first (a client may
 * spawn the command more than once: the SDK's modern stdio client probes on a sibling process first).
 */
export function writtenProfiles(dir: string, timeoutMs = 10_000): Promise<WrittenProfile[]> {
  return readWhenWritten(
    () => {
      const files = fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => path.join(dir, name));
      if (files.length === 0) throw new Error('none yet');
      return files
        .map((file) => ({ file, profile: JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile }))
        .sort((a, b) => a.profile.startTime - b.profile.startTime);
    },
    { gaveUp: `no profile written in ${dir}`, timeoutMs },
  );
}
