import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import {
  ReadBuffer,
  serializeMessage,
  StreamableHTTPClientTransport,
  type Client,
  type ClientCapabilities,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import {
  runServer,
  type DomainLifecycle,
  type Mount,
  type RunningServer,
  type RunServerOptions,
} from '../src/index.js';
import { InFlightTracker } from '../src/in-flight.js';
import { serveInProcess } from '../src/in-process.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../src/limits.js';
import { createLogger, type Logger } from '../src/runtime/index.js';
import { startStdioHost } from '../src/stdio/stdio-host.js';
import type { TaskOptions } from '../src/task-wire.js';
import { clientFor, rawHttpRequest, type ProtocolEra } from '../src/testing.js';

export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES_DIR = path.join(PACKAGE_DIR, 'test', 'fixtures');

/** A logger that keeps its JSON lines in memory (tests stay quiet and can assert on logs). */
export function memoryLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger({ level: 'debug', write: (line) => lines.push(line) }), lines };
}

export function tempDir(prefix = 'server-kit-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const INITIALIZE_BODY = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0.0.0' } },
};

export const MCP_POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

export { jsonRpcAnswerOf, MODERN_META } from '../src/testing.js';

/**
 * What a fixture (test/fixtures/*.ts under tsx) prints, run to its end with only PATH and `env` set and these Node
 * flags: for the fixtures that measure a process of their own.
 */
export function fixtureOutput(script: string, env: Record<string, string>, nodeFlags: string[] = []): string {
  const result = spawnSync(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', path.join(FIXTURES_DIR, script)],
    {
      cwd: PACKAGE_DIR,
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  if (result.status !== 0) throw new Error(`${script} exited with ${result.status}: ${result.stderr}`);
  return result.stdout.trim();
}

/** A spawned fixture process (test/fixtures/*.ts under tsx) with its stderr split into lines. */
export interface SpawnedFixture {
  child: ChildProcess;
  stderrLines: string[];
  /** Resolves with the first stderr line (past or future) that satisfies `predicate`. */
  waitForLine(predicate: (line: string) => boolean): Promise<string>;
  exited: Promise<number | null>;
}

export function spawnFixture(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): SpawnedFixture {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(FIXTURES_DIR, script), ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderrLines: string[] = [];
  const watchers: { predicate: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let buffer = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      stderrLines.push(line);
      for (const watcher of [...watchers]) {
        if (watcher.predicate(line)) {
          watchers.splice(watchers.indexOf(watcher), 1);
          watcher.resolve(line);
        }
      }
      newline = buffer.indexOf('\n');
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stderrLines,
    exited,
    waitForLine(predicate) {
      const seen = stderrLines.find(predicate);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        watchers.push({ predicate, resolve });
        void exited.then((code) =>
          reject(new Error(`fixture exited (${String(code)}) first; stderr:\n${stderrLines.join('\n')}`)),
        );
      });
    },
  };
}

/** A raw connection that resolves `closed` when the server ends it, with whatever it sent first. */
export function rawConnection(port: string) {
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, closed, received: () => received };
}

/** Parses a JSON log line, or undefined when the line is not one. */
export function logEntry(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const hasMessage =
  (msg: string) =>
  (line: string): boolean =>
    logEntry(line)?.msg === msg;

/**
 * In-process HTTP servers and SDK clients for tests, closed by `closeAll` (register it with afterEach).
 * `start` serves `modules` on a free port with a memory logger; `initialize` is a raw initialize POST.
 */
export function httpTestHarness() {
  const servers: RunningServer[] = [];
  const clients: Client[] = [];

  async function start(
    mounts: Mount<unknown, DomainLifecycle>[],
    http: RunServerOptions['http'] = {},
    extra: Partial<RunServerOptions> = {},
  ) {
    const { logger, lines } = memoryLogger();
    const server = await runServer(mounts, {
      name: 'http-test',
      version: '0.0.0',
      transport: 'http',
      http: { port: 0, ...http },
      handleSignals: false,
      logger,
      dataDir: tempDir(),
      env: {},
      ...extra,
    });
    servers.push(server);
    const url = server.url!;
    const port = new URL(url).port;
    return { server, url, base: url.replace(/\/mcp$/, ''), port, lines };
  }

  async function connectClient(url: string, token?: string, era: ProtocolEra = 'modern') {
    const client = clientFor(era, 'http-test-client');
    client.onerror = () => {};
    const transport = new StreamableHTTPClientTransport(
      new URL(url),
      token === undefined ? undefined : { requestInit: { headers: { Authorization: `Bearer ${token}` } } },
    );
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  function initialize(url: string, headers: Record<string, string> = {}) {
    return rawHttpRequest(url, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, ...headers },
      body: JSON.stringify(INITIALIZE_BODY),
    });
  }

  async function closeAll(): Promise<void> {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
    await Promise.allSettled(servers.splice(0).map((server) => server.close()));
  }

  return { servers, start, connectClient, initialize, closeAll };
}

/** A client transport over a pair of in-process streams: the client side of a stdio pipe. */
class PipeClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly toServer: Writable,
    private readonly fromServer: Readable,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', this.onData);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.fromServer.off('data', this.onData);
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer): void => {
    this.buffer.append(chunk);
    try {
      for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) {
        this.onmessage?.(message);
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
  };
}

export interface InProcessStdio {
  /** Write raw bytes to the server's stdin. */
  write(text: string): void;
  /** Every line the server wrote to stdout, parsed. */
  output: Record<string, unknown>[];
  /** Resolves with the first response (past or future) to request `id`. */
  response(id: string | number): Promise<Record<string, unknown>>;
  /** Connects a real SDK client to the pipe (the first message it sends opens the connection). */
  connectClient(era: ProtocolEra, capabilities?: ClientCapabilities): Promise<Client>;
  lines: string[];
  /** Each mounted domain's state (a test board). */
  domains: ReadonlyMap<string, DomainLifecycle>;
  /** What the server's shutdown does first: refuse new messages, end the listens for task notifications. */
  stopAccepting(): void;
  close(): Promise<void>;
}

/**
 * `mounts` served over stdio as `runServer` serves them (the SDK's `serveStdio` over the bounded transport),
 * with in-process streams for stdin and stdout.
 */
export async function startInProcessStdio(
  mounts: Mount<unknown, DomainLifecycle>[],
  options: { maxMessageBytes?: number; tasks?: TaskOptions } = {},
): Promise<InProcessStdio> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const { logger, lines } = memoryLogger();
  const serving = await serveInProcess(mounts, {
    logger,
    dataDir: tempDir(),
    env: {},
    strictOutput: true,
    persistentConnection: true,
    ...(options.tasks === undefined ? {} : { tasks: options.tasks }),
  });
  const host = startStdioHost({
    createServer: serving.createServer,
    tracker: new InFlightTracker(),
    logger,
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    taskBoards: serving.taskBoards,
    taskListens: serving.createServer.taskListens,
    onInputEnd: () => {},
    stdin,
    stdout,
  });
  const output: Record<string, unknown>[] = [];
  const waiters = new Map<string | number, (message: Record<string, unknown>) => void>();
  let pending = '';
  const tap = new PassThrough();
  stdout.pipe(tap);
  tap.setEncoding('utf8');
  tap.on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts.filter(Boolean)) {
      const message = JSON.parse(part) as Record<string, unknown>;
      output.push(message);
      const id = message.id as string | number | undefined;
      if (id !== undefined && ('result' in message || 'error' in message)) waiters.get(id)?.(message);
    }
  });
  const clients: Client[] = [];
  return {
    write: (text) => stdin.write(text),
    output,
    lines,
    domains: serving.domains,
    stopAccepting: () => host.stopAccepting(),
    response(id) {
      const seen = output.find((message) => message.id === id && ('result' in message || 'error' in message));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.set(id, resolve));
    },
    async connectClient(era, capabilities) {
      const client = clientFor(era, 'pipe-test-client', capabilities);
      await client.connect(new PipeClientTransport(stdin, stdout));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((client) => client.close()));
      await host.closeAll();
      await serving.close();
    },
  };
}
