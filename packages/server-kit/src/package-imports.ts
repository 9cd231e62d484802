import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor, type ProtocolEra } from './testing-clients.js';

/**
 * A module resolve hook (it runs on Node's loader thread): appends every bare specifier an ES module of the
 * process imports (a package; not a relative path, a URL or a node: builtin) to the file in `data.file`.
 */
const RESOLVE_HOOK = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  if (!/^([./]|[a-z]+:)/.test(specifier)) appendFileSync(file, specifier + '\\n');
  return next(specifier, context);
}`;

const dataUrl = (source: string): string => `data:text/javascript,${encodeURIComponent(source)}`;

/** `@scope/name/sub/path.js` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

export interface PackageImportLog {
  /** Node options for the child process, before its script (after `--import tsx` when it uses tsx). */
  execArgv: string[];
  /** The packages the process has imported so far, sorted, each once. */
  packages(): string[];
  /** The bare specifiers (`drizzle-orm/migrator`), sorted, each once: for packages with heavy subpaths. */
  specifiers(): string[];
  /**
   * The libraries bundled in Node itself (its `internal/deps/`, e.g. `undici/undici` behind fetch and the web
   * Request and Headers) that the process had loaded when it exited, sorted. Empty while it runs.
   */
  nodeDepsAtExit(): string[];
}

/**
 * Records which packages a child process loads, for tests that keep startup lean ("stdio never loads
 * body-parser"). Only ES module imports are seen; that is every import our packages make.
 */
export function recordPackageImports(logFile: string): PackageImportLog {
  const nodeDepsFile = `${logFile}.node-deps`;
  fs.writeFileSync(logFile, '');
  fs.writeFileSync(nodeDepsFile, '');
  const registerHook =
    "import { register } from 'node:module'; import { writeFileSync } from 'node:fs';" +
    `register(${JSON.stringify(dataUrl(RESOLVE_HOOK))}, { data: { file: ${JSON.stringify(logFile)} } });` +
    `process.on('exit', () => writeFileSync(${JSON.stringify(nodeDepsFile)}, process.moduleLoadList.join('\\n')));`;
  const lines = (file: string) =>
    [...new Set(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean))].sort();
  const specifiers = () => lines(logFile);
  return {
    execArgv: ['--import', dataUrl(registerHook)],
    packages: () => [...new Set(specifiers().map(packageName))].sort(),
    specifiers,
    nodeDepsAtExit: () =>
      lines(nodeDepsFile).flatMap((line) => /^NativeModule internal\/deps\/(.+)$/.exec(line)?.[1] ?? []),
  };
}

/**
 * The packages a fresh Node process loads while it imports `files` (compiled modules, in order), for tests
 * that pin what a module pulls in ("domain logic never loads the MCP SDK"). Throws with the child's stderr
 * when an import fails or a file is missing (build first).
 */
export function packagesImportedBy(files: readonly string[], cwd: string): string[] {
  for (const file of files) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the package first (pnpm build)`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'package-imports-'));
  try {
    const imports = recordPackageImports(path.join(dir, 'imports.log'));
    const script = files
      .map((file) => `await import(${JSON.stringify(pathToFileURL(file).href)});`)
      .join('\n');
    const result = spawnSync(process.execPath, [...imports.execArgv, '--input-type=module', '-e', script], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (result.status !== 0) throw new Error(`importing ${files.join(', ')} failed:\n${result.stderr}`);
    return imports.packages();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The compiled files (dist/) of the source modules (src/) under `folder` of a package, but `except`: from
 * src/, so stale files left in dist/ do not count.
 */
export function compiledModules(packageDir: string, folder = '', except: readonly string[] = []): string[] {
  return fs
    .readdirSync(path.join(packageDir, 'src', folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !except.includes(file))
    .map((file) => path.join(packageDir, 'dist', folder, file.replace(/\.ts$/, '.js')))
    .sort();
}

/** drizzle's query builder: a server opens its databases without it (raw better-sqlite3 and the migrator). */
export const DRIZZLE_QUERY_BUILDER = ['drizzle-orm', 'drizzle-orm/better-sqlite3', 'drizzle-orm/sqlite-core'];

export interface StdioBinOptions {
  /** The bin's TypeScript entry, run through tsx. */
  bin: string;
  cwd: string;
  /** Where the import log goes (a fresh temp file). */
  logFile: string;
  /** The child's whole environment. */
  env: Record<string, string>;
  /** Which protocol era the client speaks; default legacy (the handshake, one process: what starts pay). */
  era?: ProtocolEra;
}

export interface RecordedStdioBin {
  client: Client;
  imports: PackageImportLog;
  close(): Promise<void>;
}

/** Spawns a bin over stdio with its package imports recorded, and connects a real SDK client to it. */
export async function connectRecordingImports(options: StdioBinOptions): Promise<RecordedStdioBin> {
  const imports = recordPackageImports(options.logFile);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', ...imports.execArgv, options.bin],
    cwd: options.cwd,
    env: options.env,
    stderr: 'ignore',
  });
  const client = clientFor(options.era ?? 'legacy', 'cold-start-test');
  await client.connect(transport);
  return { client, imports, close: () => client.close() };
}
