import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { RunConfigInput } from '@switchyard/contracts/launch-runs';
import { createLogger, type Logger, type PostgresSettings } from '@switchyard/server-kit/runtime';
import { callTool, connectInMemory, type ProtocolEra, type ToolAnswer } from '@switchyard/server-kit/testing';
import {
  launchRunsDomainWith,
  LaunchRunsConfigSchema,
  type LaunchRunsConfig,
  type LaunchRunsConfigInput,
  type LaunchRunsState,
} from '../../src/index.js';
import type { LaunchPipeline } from '../../src/pipeline/types.js';

/** The run ids newRunId makes: `r_<UTC time as YYYY-MM-DDTHH-MM-SSZ>_<8 hex>`. */
export const RUN_ID_PATTERN = /^r_\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z_[0-9a-f]{8}$/;

export type Payload = Record<string, unknown> & {
  ok?: boolean;
  error?: { code: string; message: string; retryable: boolean; details: Record<string, unknown> };
};

export interface Harness {
  /** The opened domain (`connectInMemory`'s `domains`): its runs, telemetry, readiness and close. */
  state: LaunchRunsState;
  client: Client;
  dataDir: string;
  /** Calls a tool (server-kit's `callTool`): read `.structured`, or `errorOf(answer, CODE)` for an error. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  /**
   * Another client on the same opened domain (its own connection, in `era`); with `clientId`, a caller the
   * HTTP layer's token check named so (another principal; modern era).
   */
  connect(era?: ProtocolEra, clientId?: string): Promise<Client>;
  close(): Promise<void>;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `launch-${prefix}-`));
}

/**
 * What a test file's tests open, closed and removed after each test (call it once, at the file's top level):
 * `kept(harness)` closes that harness, `folder(prefix)` makes a temporary folder that is removed.
 */
export function cleanedAfterEach(): {
  kept: (harness: Harness) => Harness;
  folder: (prefix: string) => string;
} {
  const harnesses: Harness[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    kept: (harness) => {
      harnesses.push(harness);
      return harness;
    },
    folder: (prefix) => {
      const dir = tempDir(prefix);
      dirs.push(dir);
      return dir;
    },
  };
}

/** Every error line the harnesses' loggers wrote: several tests provoke internal errors on purpose. */
export const logLines: string[] = [];

/** Errors only, kept in `logLines` instead of the test output. */
const quiet = () => createLogger({ level: 'error', write: (line) => logLines.push(line) });

export async function startHarness(
  options: {
    pipeline?: LaunchPipeline;
    dataDir?: string;
    leaseMs?: number;
    otlpTracesUrl?: string;
    keepDataDir?: boolean;
    /** The domain's logger (background work, start-up recovery); quiet by default. */
    logger?: Logger;
    /** Operator settings (policy, limits) beyond the defaults below. */
    config?: Partial<LaunchRunsConfigInput>;
    /** The environment workers read (pr.github.token_env); process.env by default. */
    env?: Record<string, string | undefined>;
    /** The protocol era the client speaks; modern (2026-07-28) by default. */
    era?: ProtocolEra;
    /** Runs on this PostgreSQL database instead of launch-runs.sqlite; see `storageFor` (dialects.ts). */
    database?: PostgresSettings;
    /** The server's answer limit in bytes (default 1 MiB). */
    maxAnswerBytes?: number;
  } = {},
): Promise<Harness> {
  const dataDir = options.dataDir ?? tempDir('data');
  const domain = launchRunsDomainWith(options.pipeline ? { pipeline: options.pipeline } : {});
  const settings = LaunchRunsConfigSchema.parse({
    // Tests keep their repositories in the OS temp folder: allowed here explicitly (LAUNCH_REPO_ROOTS),
    // as an operator would; the server's own default is its data directory.
    repoRoots: [os.tmpdir()],
    ...options.config,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.otlpTracesUrl === undefined ? {} : { otlpTracesUrl: options.otlpTracesUrl }),
  });
  // Not part of the schema (loadLaunchRunsConfig resolves it from the environment): set after parsing.
  const config: LaunchRunsConfig =
    options.database === undefined ? settings : { ...settings, database: options.database };
  const connection = await connectInMemory([{ domain, config }], {
    dataDir,
    env: options.env ?? process.env,
    logger: options.logger ?? quiet(),
    ...(options.era === undefined ? {} : { era: options.era }),
    maxAnswerBytes: options.maxAnswerBytes,
  });
  const state = connection.domains.get(domain.name) as LaunchRunsState;
  const extra: { close(): Promise<void> }[] = [];
  return {
    state,
    client: connection.client,
    dataDir,
    call: (name, args) => callTool(connection.client, name, args),
    async connect(era, clientId) {
      // The same opened state behind a second server: closing that connection leaves the domain open.
      const shared = { ...domain, open: () => ({ ...state, close: async () => undefined }) };
      const second = await connectInMemory([{ domain: shared, config }], {
        dataDir,
        logger: quiet(),
        ...(era === undefined ? {} : { era }),
        ...(clientId === undefined ? {} : { authInfo: { token: clientId, clientId, scopes: [] } }),
      });
      extra.push(second);
      return second.client;
    },
    async close() {
      for (const second of extra.splice(0)) await second.close();
      await connection.close();
      if (!options.keepDataDir && options.dataDir === undefined)
        fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function runConfig(overrides: Partial<RunConfigInput> = {}): RunConfigInput {
  return {
    schema_version: '1.0',
    product_slug: 'example-product',
    product_name: 'Example Product',
    source: { repo: path.join(os.tmpdir(), 'example-source') },
    site: { repo: path.join(os.tmpdir(), 'example-site') },
    allowed_paths: ['content/**'],
    ...overrides,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls launch_get_status until `done(status)`; the test's own timeout bounds the wait. */
export async function waitForStatus(
  harness: Pick<Harness, 'call'>,
  runId: string,
  done: (status: Record<string, unknown> & { state: string }) => boolean,
): Promise<Record<string, unknown> & { state: string; details: Record<string, unknown> }> {
  for (;;) {
    const payload = (await harness.call('launch_get_status', { run_id: runId })).structured;
    const status = payload.status as Record<string, unknown> & {
      state: string;
      details: Record<string, unknown>;
    };
    if (status === undefined) throw new Error(`launch_get_status failed: ${JSON.stringify(payload)}`);
    if (done(status)) return status;
    await sleep(10);
  }
}

/** Nobody works on the run and it stopped where the background work stops (or halted on an error). */
export const atRest = (status: { state: string; details?: Record<string, unknown> }) =>
  status.details?.busy === false &&
  (['VALIDATING', 'READY_FOR_PR', 'DONE', 'FAILED', 'CANCELLED'].includes(status.state) ||
    status.details.error !== undefined ||
    status.details.interrupted === true);

/** Starts a run and waits until the background work rests (VALIDATING, READY_FOR_PR or an end). */
export async function startAndSettle(harness: Harness, config: RunConfigInput = runConfig(), key?: string) {
  const started = (
    await harness.call('launch_start_run', {
      run_config: config,
      ...(key === undefined ? {} : { idempotency_key: key }),
    })
  ).structured;
  if (started.ok !== true) throw new Error(`start failed: ${JSON.stringify(started)}`);
  const runId = started.run_id as string;
  const status = await waitForStatus(harness, runId, atRest);
  return { runId, status };
}
