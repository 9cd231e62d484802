import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  callTool,
  connectRecordingImports,
  DRIZZLE_QUERY_BUILDER,
  type PackageImportLog,
} from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { atRest, runConfig, tempDir, waitForStatus, type Harness } from './support/harness.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(packageDir, 'src', 'bin.ts');

/** What the workers use: loaded when a run first executes a worker, never to answer initialize. */
const PIPELINE_PACKAGES = [
  'markdownlint',
  'markdown-it',
  'yaml',
  'simple-git',
  'smol-toml',
  'jsonc-parser',
  'diff',
  'picomatch',
];
/** Loaded only when an OTLP endpoint is configured, with the first span to export. */
const OPENTELEMETRY_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-http',
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The standalone bin over stdio, recording the packages it imports. */
async function startBin(env: Record<string, string> = {}): Promise<{
  harness: Pick<Harness, 'call'>;
  imports: PackageImportLog;
  close(): Promise<void>;
}> {
  const dir = tempDir('cold');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const { client, imports } = await connectRecordingImports({
    bin,
    cwd: packageDir,
    logFile: path.join(dir, 'imports.log'),
    env: {
      ...(process.env as Record<string, string>),
      SWITCHYARD_DATA_DIR: path.join(dir, 'data'),
      SWITCHYARD_LOG_LEVEL: 'error',
      ...env,
    },
  });
  expect((await client.listTools()).tools).toHaveLength(10);
  const close = () => client.close();
  cleanups.push(close);
  const harness = {
    call: (name: string, args: Record<string, unknown> = {}) => callTool(client, name, args),
  };
  return { harness, imports, close };
}

describe('cold start of switchyard-launch', { timeout: 180_000 }, () => {
  it("loads drizzle's query builder with the first call that needs runs, never the pipeline or OpenTelemetry to answer queries", async () => {
    const { harness, imports, close } = await startBin();
    // Opening and migrating the database needs drizzle's migrator only.
    expect(imports.specifiers()).toContain('drizzle-orm/migrator');
    // A call rejected at input validation does not need the run store either.
    expect((await harness.call('launch_get_status', { run_id: 'nope' })).structured).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    for (const specifier of DRIZZLE_QUERY_BUILDER) expect(imports.specifiers()).not.toContain(specifier);
    expect((await harness.call('launch_list_runs')).structured.ok).toBe(true);
    expect(imports.specifiers()).toContain('drizzle-orm');
    await close();
    const loaded = imports.packages();
    expect(loaded).toContain('@modelcontextprotocol/server');
    for (const name of [...PIPELINE_PACKAGES, ...OPENTELEMETRY_PACKAGES, 'body-parser', 'cors']) {
      expect(loaded).not.toContain(name);
    }
    // Nor Node's fetch implementation (30-40 ms to load): only a GitHub call needs it.
    expect(imports.nodeDepsAtExit()).not.toContain('undici/undici');
  });

  it('loads the pipeline when a run executes its first worker, OpenTelemetry when it has spans to export', async () => {
    const collector = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => collector.close(() => resolve())));
    const { port } = collector.address() as AddressInfo;
    // Repositories that do not exist: W1 runs (and fails) without touching the network. Their folder is
    // allowed explicitly (the default root is the data directory).
    const missing = path.join(packageDir, 'test', 'no-such-repository');
    const { harness, imports, close } = await startBin({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      LAUNCH_REPO_ROOTS: path.dirname(missing),
    });
    const started = (
      await harness.call('launch_start_run', {
        run_config: runConfig({ source: { repo: missing }, site: { repo: missing } }),
      })
    ).structured;
    expect(started).toMatchObject({ ok: true, state: 'CREATED' });
    const status = await waitForStatus(harness, started.run_id as string, atRest);
    expect(status.state).toBe('FAILED');
    await close();
    expect(imports.packages()).toEqual(
      expect.arrayContaining([...PIPELINE_PACKAGES, ...OPENTELEMETRY_PACKAGES]),
    );
  });
});
