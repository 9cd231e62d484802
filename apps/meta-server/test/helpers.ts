import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport, type Client, type Tool } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor, type ProtocolEra } from '@switchyard/server-kit/testing';
import { expect } from 'vitest';

export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(PACKAGE_DIR, '..', '..');
/** The bin users run (it starts the bundle in dist/bundle/): these tests need `pnpm build` first. */
export const BIN = path.join(PACKAGE_DIR, 'bin', 'switchyard.js');
const BUNDLE = path.join(PACKAGE_DIR, 'dist', 'bundle', 'bin.js');

export function requireBuiltBin(): string {
  if (!fs.existsSync(BUNDLE))
    throw new Error(`${BUNDLE} is missing: build @switchyard/server first (pnpm build)`);
  return BIN;
}

export function tempDir(prefix = 'switchyard-server-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Keys that let transit mount both providers; no test here calls the real upstreams. */
export const DUMMY_KEYS = {
  TFL_API_KEY: 'dummy-tfl-key-for-tests',
  DIGITRANSIT_SUBSCRIPTION_KEY: 'dummy-digitransit-key-for-tests',
};

/** Every tool of every domain, by contract name. */
export const TRANSIT_TOOLS = [
  'planJourney',
  'get_london_arrivals',
  'get_line_status',
  'find_london_stops',
  'get_departures',
  'plan_trip',
  'find_stops',
  'save_user_variable',
  'get_user_variables',
  'delete_user_variable',
];
export const LAUNCH_TOOLS = [
  'launch_start_run',
  'launch_get_status',
  'launch_get_artifact',
  'launch_validate',
  'launch_fix_next',
  'launch_resume',
  'launch_cancel',
  'launch_open_pr',
  'launch_list_runs',
  'launch_submit_draft',
];
export const JOURNEY_TOOLS = [
  'get_or_create_journey',
  'query_journey_history',
  'add_document_to_journey',
  'record_session',
  'delete_journey',
];
export const ALL_TOOLS = [...TRANSIT_TOOLS, ...LAUNCH_TOOLS, ...JOURNEY_TOOLS];

/** An environment for the bin with nothing from the developer's shell that could change what mounts. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  return { ...getDefaultEnvironment(), SWITCHYARD_LOG_LEVEL: 'warn', ...extra };
}

/** Asserts the listing carries everything a client needs for each tool, and that no name appears twice. */
export function expectCompleteListing(tools: readonly Tool[], expectedNames: readonly string[]): void {
  const names = tools.map((tool) => tool.name);
  expect([...names].sort()).toEqual([...expectedNames].sort());
  expect(new Set(names).size).toBe(names.length);
  for (const tool of tools) {
    expect(tool.title, `${tool.name} title`).toEqual(expect.any(String));
    expect(tool.description?.length ?? 0, `${tool.name} description`).toBeGreaterThan(20);
    expect(tool.inputSchema.type, `${tool.name} inputSchema`).toBe('object');
    expect(tool.outputSchema?.type, `${tool.name} outputSchema`).toBe('object');
    expect(tool.annotations, `${tool.name} annotations`).toMatchObject({
      readOnlyHint: expect.any(Boolean),
      openWorldHint: expect.any(Boolean),
    });
    // The spec gives destructive/idempotent hints meaning only for tools that write: listed there, and only there.
    if (tool.annotations?.readOnlyHint === false) {
      expect(tool.annotations, `${tool.name} annotations`).toMatchObject({
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
      });
    } else {
      expect(Object.keys(tool.annotations ?? {}).sort(), `${tool.name} annotations`).toEqual([
        'openWorldHint',
        'readOnlyHint',
      ]);
    }
  }
}

export interface StdioConnection {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns the built bin over stdio and connects a v2 SDK client speaking `era` (default 2026-07-28). */
export async function connectStdio(
  env: Record<string, string>,
  args: string[] = [],
  era: ProtocolEra = 'modern',
): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuiltBin(), ...args],
    env: cleanEnv(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = clientFor(era, 'switchyard-test');
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface SpawnedServer {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

const URL_LINE = /serving MCP over Streamable HTTP at (\S+)/;

/** Starts the built bin over HTTP on a free port and waits until it prints its URL. */
export function spawnHttpServer(
  env: Record<string, string>,
  args: string[] = [],
  /** Options for Node itself, before the script. */
  nodeOptions: string[] = [],
): Promise<SpawnedServer> {
  const child = spawn(
    process.execPath,
    [...nodeOptions, requireBuiltBin(), '--http', '--port', '0', ...args],
    {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = URL_LINE.exec(stderr);
      if (match?.[1] !== undefined) {
        resolve({
          child,
          url: match[1],
          stderr: () => stderr,
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) =>
      reject(new Error(`switchyard exited with ${code} before listening:\n${stderr}`)),
    );
  });
}

/** Runs the bin to completion (for starts that must fail) and returns its exit code and output. */
export function runBin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [requireBuiltBin(), ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A v2 SDK client speaking `era` (default 2026-07-28) to `url`, with the bearer token when given. */
export async function connectHttp(url: string, token?: string, era: ProtocolEra = 'modern'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  });
  const client = clientFor(era, 'switchyard-test');
  await client.connect(transport);
  return client;
}

export const INITIALIZE_REQUEST = {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0.0.0' },
    },
  }),
};

/** How many PostgreSQL migrations a domain package ships (its drizzle-postgres journal): `switchyard migrate` applies them all. */
export function postgresMigrationCount(
  domainPackage: 'transit' | 'journey-continuity' | 'launch-runs',
): number {
  const journal = path.join(
    REPO_ROOT,
    'packages',
    domainPackage,
    'drizzle-postgres',
    'meta',
    '_journal.json',
  );
  return (JSON.parse(fs.readFileSync(journal, 'utf8')) as { entries: unknown[] }).entries.length;
}

/** The lines `switchyard migrate` prints on a fresh database, each domain's migrations all applied at `at`. */
export function appliedEveryMigration(at: string): RegExp {
  const line = (domain: 'transit' | 'journey-continuity' | 'launch-runs') =>
    `${domain}: applied ${postgresMigrationCount(domain)} migration\\(s\\) at ${at}\\n`;
  return new RegExp(`^${line('transit')}${line('journey-continuity')}${line('launch-runs')}$`);
}
