import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadLaunchRunsConfig, pipelineOptionsOf } from '../src/config.js';
import { tempDir } from './support/harness.js';

describe('loadLaunchRunsConfig', () => {
  it("reads the lease, the active run limit and OTLP endpoint from the environment (the data directory is the server's)", () => {
    const dir = tempDir('config');
    try {
      expect(loadLaunchRunsConfig({ SWITCHYARD_DATA_DIR: dir })).toEqual({
        leaseMs: 30_000,
        takeoverMs: 5_000,
        serviceName: 'switchyard-launch',
        maxActiveRuns: 20,
        maxDraftBytes: 262_144,
        draftMaxRounds: 3,
        draftMaxTokens: 8192,
        expiredTaskBatch: 100,
      });
      expect(
        loadLaunchRunsConfig({
          SWITCHYARD_DATA_DIR: dir,
          LAUNCH_LEASE_MS: '5000',
          LAUNCH_TAKEOVER_MS: '250',
          LAUNCH_MAX_ACTIVE_RUNS: '3',
          LAUNCH_MAX_DRAFT_BYTES: '4096',
          LAUNCH_DRAFT_MAX_ROUNDS: '5',
          LAUNCH_DRAFT_MAX_TOKENS: '2048',
          LAUNCH_EXPIRED_TASK_BATCH: '7',
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
          OTEL_SERVICE_NAME: 'launch-prod',
        }),
      ).toEqual({
        leaseMs: 5000,
        takeoverMs: 250,
        otlpTracesUrl: 'http://127.0.0.1:4318/v1/traces',
        serviceName: 'launch-prod',
        maxActiveRuns: 3,
        maxDraftBytes: 4096,
        draftMaxRounds: 5,
        draftMaxTokens: 2048,
        expiredTaskBatch: 7,
      });
      expect(
        loadLaunchRunsConfig({
          SWITCHYARD_DATA_DIR: dir,
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom/traces',
        }).otlpTracesUrl,
      ).toBe('http://collector:4318/custom/traces');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('puts runs on PostgreSQL with LAUNCH_DATABASE_URL, else SWITCHYARD_DATABASE_URL, else SQLite', () => {
    const own = 'postgres://launch:secret@db.example:5432/launch';
    const shared = 'postgres://all:secret@db.example:5432/all';
    expect(loadLaunchRunsConfig({}).database).toBeUndefined();
    expect(loadLaunchRunsConfig({ SWITCHYARD_DATABASE_URL: shared }).database?.url).toBe(shared);
    expect(
      loadLaunchRunsConfig({ SWITCHYARD_DATABASE_URL: shared, LAUNCH_DATABASE_URL: own }).database,
    ).toMatchObject({ url: own, variable: 'LAUNCH_DATABASE_URL' });
  });

  it('reads the file and git limits, which the pipeline gets (its defaults when unset)', () => {
    const dir = tempDir('config');
    try {
      const config = loadLaunchRunsConfig({
        SWITCHYARD_DATA_DIR: dir,
        LAUNCH_MAX_FILE_BYTES: '65536',
        LAUNCH_MAX_HASH_BYTES: '0',
        LAUNCH_GIT_TIMEOUT_MS: '90000',
        LAUNCH_CLONE_MAX_BYTES: '1048576',
      });
      const limits = { maxFileBytes: 65536, maxHashBytes: 0, gitTimeoutMs: 90000, cloneMaxBytes: 1048576 };
      expect(config).toMatchObject(limits);
      expect(pipelineOptionsOf(config)).toEqual(limits);
      expect(pipelineOptionsOf(loadLaunchRunsConfig({ SWITCHYARD_DATA_DIR: dir }))).toEqual({});
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ LAUNCH_LEASE_MS: 'soon' }, 'LAUNCH_LEASE_MS'],
    [{ LAUNCH_LEASE_MS: '10' }, 'LAUNCH_LEASE_MS'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://x' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
    [{ LAUNCH_MAX_FILE_BYTES: '10' }, 'LAUNCH_MAX_FILE_BYTES'],
    [{ LAUNCH_MAX_FILE_BYTES: '4MiB' }, 'LAUNCH_MAX_FILE_BYTES'],
    [{ LAUNCH_MAX_HASH_BYTES: '-1' }, 'LAUNCH_MAX_HASH_BYTES'],
    [{ LAUNCH_TAKEOVER_MS: '50' }, 'LAUNCH_TAKEOVER_MS'],
    [{ LAUNCH_GIT_TIMEOUT_MS: '999' }, 'LAUNCH_GIT_TIMEOUT_MS'],
    [{ LAUNCH_CLONE_MAX_BYTES: '1048575' }, 'LAUNCH_CLONE_MAX_BYTES'],
    [{ LAUNCH_DATABASE_URL: 'not a url' }, 'LAUNCH_DATABASE_URL'],
    [{ LAUNCH_MAX_ACTIVE_RUNS: '0' }, 'LAUNCH_MAX_ACTIVE_RUNS'],
    [{ LAUNCH_MAX_ACTIVE_RUNS: '10001' }, 'LAUNCH_MAX_ACTIVE_RUNS'],
    [{ LAUNCH_MAX_ACTIVE_RUNS: 'many' }, 'LAUNCH_MAX_ACTIVE_RUNS'],
    [{ LAUNCH_MAX_DRAFT_BYTES: '1023' }, 'LAUNCH_MAX_DRAFT_BYTES'],
    [{ LAUNCH_MAX_DRAFT_BYTES: '16777217' }, 'LAUNCH_MAX_DRAFT_BYTES'],
    [{ LAUNCH_DRAFT_MAX_ROUNDS: '0' }, 'LAUNCH_DRAFT_MAX_ROUNDS'],
    [{ LAUNCH_DRAFT_MAX_ROUNDS: '21' }, 'LAUNCH_DRAFT_MAX_ROUNDS'],
    [{ LAUNCH_DRAFT_MAX_TOKENS: '255' }, 'LAUNCH_DRAFT_MAX_TOKENS'],
    [{ LAUNCH_DRAFT_MAX_TOKENS: '1000001' }, 'LAUNCH_DRAFT_MAX_TOKENS'],
    [{ LAUNCH_EXPIRED_TASK_BATCH: '0' }, 'LAUNCH_EXPIRED_TASK_BATCH'],
    [{ LAUNCH_EXPIRED_TASK_BATCH: '10001' }, 'LAUNCH_EXPIRED_TASK_BATCH'],
  ])('fails fast naming the variable (%j)', (env, variable) => {
    const dir = tempDir('config');
    try {
      expect(() => loadLaunchRunsConfig({ SWITCHYARD_DATA_DIR: dir, ...env })).toThrow(variable);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
