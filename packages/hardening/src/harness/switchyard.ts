import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { DETECTOR, switchyardBin } from './paths.js';
import { rssKib } from './process-stats.js';

export interface SpawnOptions {
  /** Variables for the server (added to a minimal environment: nothing from the developer's shell). */
  env: Record<string, string>;
  /** Extra flags after `--http --port 0`. */
  args?: string[];
  /** How long to wait for the URL line. */
  startTimeoutMs?: number;
}

export interface MemoryAfterGc {
  rss: number;
  /** What V8 holds for its heap, used or not. */
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Markers the preloaded detector prints (see fixtures/detect-unhandled.mjs). */
const DEFECT_LINE = /^HARDENING_(UNHANDLED_REJECTION|UNCAUGHT_EXCEPTION|WARNING) /;
const URL_LINE = /serving MCP over Streamable HTTP at (\S+)/;
const MEMORY_LINE = /^HARDENING_MEMORY (\{.*\})$/;

export interface SpawnedSwitchyard {
  readonly child: ChildProcess;
  readonly pid: number;
  /** `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Every complete stderr line so far (JSON log lines, the start-up report, detector markers). */
  lines(): string[];
  /** The detector's lines: unhandled rejections, uncaught exceptions, warnings. */
  defects(): string[];
  rssKib(): number | undefined;
  /** Full GC in the server (SIGUSR2, see the detector), then its memory in bytes. */
  memoryAfterGc(): Promise<MemoryAfterGc>;
  alive(): boolean;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** SIGKILL: no shutdown at all (the crash case). */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | null>;
}

/** Starts the `switchyard` bin over Streamable HTTP on a free loopback port and waits for its URL. */
export function spawnSwitchyard(options: SpawnOptions): Promise<SpawnedSwitchyard> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', DETECTOR, switchyardBin(), '--http', '--port', '0', ...(options.args ?? [])],
    {
      env: { ...getDefaultEnvironment(), SWITCHYARD_LOG_LEVEL: 'debug', ...options.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const lines: string[] = [];
  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid ?? -1;
  const timeoutMs = options.startTimeoutMs ?? 30_000;

  return new Promise<SpawnedSwitchyard>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`switchyard did not print its URL within ${timeoutMs} ms:\n${lines.join('\n')}`));
    }, timeoutMs);
    const poll = setInterval(() => {
      const match = lines.map((line) => URL_LINE.exec(line)).find((m) => m !== null);
      if (match?.[1] === undefined) return;
      clearInterval(poll);
      clearTimeout(timer);
      const url = match[1];
      resolve({
        child,
        pid,
        url,
        lines: () => (partial === '' ? [...lines] : [...lines, partial]),
        defects: () => lines.filter((line) => DEFECT_LINE.test(line)),
        rssKib: () => rssKib(pid),
        memoryAfterGc: async () => {
          const seen = lines.filter((line) => MEMORY_LINE.test(line)).length;
          child.kill('SIGUSR2');
          for (let waited = 0; waited < 10_000; waited += 20) {
            const reports = lines.filter((line) => MEMORY_LINE.test(line));
            if (reports.length > seen)
              return JSON.parse(MEMORY_LINE.exec(reports.at(-1)!)![1]!) as MemoryAfterGc;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          throw new Error('the server did not report its memory after SIGUSR2');
        },
        alive: () => child.exitCode === null && child.signalCode === null,
        exited,
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    }, 10);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`switchyard exited (${String(code)}) before listening:\n${lines.join('\n')}`));
    });
  });
}
