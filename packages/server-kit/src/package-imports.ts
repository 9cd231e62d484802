import fs from 'node:fs';
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
}

/**
 * Records which packages a child process loads, for tests that keep startup lean ("stdio never loads
 * body-parser"). Only ES module imports are seen; that is every import our packages make.
 */
export function recordPackageImports(logFile: string): PackageImportLog {
  fs.writeFileSync(logFile, '');
  const registerHook =
    "import { register } from 'node:module';" +
    `register(${JSON.stringify(dataUrl(RESOLVE_HOOK))}, { data: { file: ${JSON.stringify(logFile)} } });`;
  const specifiers = () => [...new Set(fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean))].sort();
  return {
    execArgv: ['--import', dataUrl(registerHook)],
    packages: () => [...new Set(specifiers().map(packageName))].sort(),
    specifiers,
  };
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
