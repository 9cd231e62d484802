import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorOf } from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { launchDb } from '../src/db/drizzle.js';
import { openLaunchDatabase } from '../src/db/open.js';
import { spans, type SpanRow } from '../src/db/schema.js';
import { LaunchTelemetry } from '../src/telemetry/telemetry.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { runConfig, startAndSettle, startHarness, tempDir, type Harness } from './support/harness.js';

let h: Harness | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function spanRows(dataDir: string): SpanRow[] {
  const database = openLaunchDatabase(dataDir);
  try {
    return launchDb(database.sqlite).select().from(spans).all();
  } finally {
    database.sqlite.close();
  }
}

/** A module that does not exist: importing it fails the way a missing dependency does. */
const NOT_INSTALLED = './support/not-installed.js';

describe('telemetry', () => {
  it('records a span per tool call (rejected calls too) and per worker, children of the tool call', async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 1 }) });
    const { runId } = await startAndSettle(h);
    await h.call('launch_fix_next', { run_id: runId });
    errorOf(await h.call('launch_get_status', { run_id: 'bad' }), 'INVALID_INPUT');
    errorOf(await h.call('launch_open_pr', { run_id: 'r_2026-01-01T00-00-00Z_00000000' }), 'RUN_NOT_FOUND');
    const badConfig = { run_config: { ...runConfig(), product_slug: 'Not A Slug' } };
    errorOf(await h.call('launch_start_run', badConfig), 'SCHEMA_VALIDATION_FAILED');
    await h.state.flushTelemetry();
    const rows = spanRows(h.dataDir);

    const start = rows.find((row) => row.tool === 'launch_start_run' && row.outcome === 'ok');
    expect(start).toMatchObject({ kind: 'tool', runId, outcome: 'ok', errorCode: null });
    const backgroundWorkers = rows.filter(
      (row) => row.kind === 'worker' && row.parentSpanId === start?.spanId,
    );
    expect(backgroundWorkers.map((row) => row.worker).sort()).toEqual([
      'W1',
      'W2',
      'W3',
      'W4',
      'W5',
      'W6',
      'W7',
    ]);
    for (const worker of backgroundWorkers) {
      expect(worker).toMatchObject({ traceId: start?.traceId, runId, outcome: 'ok' });
      expect(worker.durationMs).toBeGreaterThanOrEqual(0);
    }

    const fix = rows.find((row) => row.tool === 'launch_fix_next');
    expect(rows.filter((row) => row.parentSpanId === fix?.spanId).map((row) => row.worker)).toEqual([
      'W8',
      'W7',
    ]);

    const rejected = rows.find((row) => row.tool === 'launch_get_status' && row.outcome === 'error');
    expect(rejected).toMatchObject({ errorCode: 'INVALID_INPUT', runId: null });
    expect(rows.find((row) => row.tool === 'launch_open_pr')).toMatchObject({
      outcome: 'error',
      errorCode: 'RUN_NOT_FOUND',
    });
    // The span records the code the contract answers with (launch_start_run's own, via its mapError).
    expect(rows.find((row) => row.tool === 'launch_start_run' && row.outcome === 'error')).toMatchObject({
      errorCode: 'SCHEMA_VALIDATION_FAILED',
      parentSpanId: null,
    });
    const statusCalls = rows.filter((row) => row.tool === 'launch_get_status');
    expect(statusCalls.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(row.spanId).toMatch(/^[0-9a-f]{16}$/);
    }

    // Events carry the trace/span ids of the span they happened in.
    const events = await (await h.state.runs()).events(runId);
    const spanIds = new Set(rows.map((row) => row.spanId));
    expect(events.every((event) => event.trace_id !== null && spanIds.has(event.span_id ?? ''))).toBe(true);
    const w1Started = events.find(
      (event) => event.type === 'WORK_ITEM_STARTED' && event.payload.worker === 'W1',
    );
    expect(w1Started?.span_id).toBe(backgroundWorkers.find((row) => row.worker === 'W1')?.spanId);
  });

  it('exports spans over OTLP/HTTP through the OpenTelemetry SDK when an endpoint is configured', async () => {
    const received: { url: string; contentType: string; body: string }[] = [];
    const collector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          url: req.url ?? '',
          contentType: String(req.headers['content-type']),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => collector.close(() => resolve())));
    const port = (collector.address() as AddressInfo).port;
    const dataDir = tempDir('otlp');
    cleanups.push(() => import('node:fs').then((fs) => fs.rmSync(dataDir, { recursive: true, force: true })));

    const local = await startHarness({
      pipeline: new FakePipeline({ seededProblems: 0 }),
      dataDir,
      otlpTracesUrl: `http://127.0.0.1:${port}/v1/traces`,
    });
    const { runId } = await startAndSettle(local, runConfig());
    errorOf(await local.call('launch_get_status', { run_id: 'bad' }), 'INVALID_INPUT');
    errorOf(await local.call('launch_fix_next', { run_id: runId }), 'ILLEGAL_STATE');
    await local.close(); // shutdown flushes the batch exporter

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((request) => request.url === '/v1/traces')).toBe(true);
    expect(received[0]?.contentType).toContain('application/json');
    const body = received.map((request) => request.body).join('\n');
    expect(body).toContain('launch.tool launch_start_run');
    expect(body).toContain('launch.worker W1 inputs');
    expect(body).toContain(runId);
    expect(body).toContain('switchyard-launch');
    // Failed calls say where they failed: arguments refused (input) or the work itself (handler).
    expect(body).toMatch(/"launch\.failure_stage","value":\{"stringValue":"input"\}/);
    expect(body).toMatch(/"launch\.failure_stage","value":\{"stringValue":"handler"\}/);
    const stored = spanRows(dataDir).find((row) => row.tool === 'launch_start_run');
    expect(body).toContain(stored?.traceId);
  });

  it('keeps storing spans, and says so once, when the OpenTelemetry SDK cannot be loaded for export', async () => {
    const dataDir = tempDir('otel-missing');
    const database = openLaunchDatabase(dataDir);
    cleanups.push(() => {
      database.sqlite.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const errors: string[] = [];
    const telemetry = new LaunchTelemetry({
      sqlite: database.sqlite,
      serviceName: 'switchyard-launch',
      serviceVersion: '0.0.0',
      otlpTracesUrl: 'http://127.0.0.1:9/v1/traces',
      errorCodeOf: () => 'INTERNAL',
      onError: (message) => errors.push(message),
      loadOpenTelemetry: () => import(NOT_INSTALLED),
    });
    await telemetry.inSpan(
      'launch.tool launch_list_runs',
      { kind: 'tool', tool: 'launch_list_runs' },
      async () => {
        await telemetry.inSpan(
          'launch.worker W1 inputs',
          { kind: 'worker', worker: 'W1' },
          async () => undefined,
        );
      },
    );
    await telemetry.inSpan(
      'launch.tool launch_get_status',
      { kind: 'tool', tool: 'launch_get_status' },
      async (span) => span.fail('INVALID_INPUT', 'input'),
    );
    await telemetry.flush();
    await telemetry.shutdown();

    expect(errors).toEqual(['OpenTelemetry could not be loaded: spans are stored but not exported']);
    const rows = launchDb(database.sqlite).select().from(spans).all();
    expect(rows.map((row) => row.name).sort()).toEqual([
      'launch.tool launch_get_status',
      'launch.tool launch_list_runs',
      'launch.worker W1 inputs',
    ]);
    const tool = rows.find((row) => row.tool === 'launch_list_runs');
    expect(rows.find((row) => row.worker === 'W1')).toMatchObject({
      traceId: tool?.traceId,
      parentSpanId: tool?.spanId,
      outcome: 'ok',
    });
    expect(rows.find((row) => row.tool === 'launch_get_status')).toMatchObject({
      outcome: 'error',
      errorCode: 'INVALID_INPUT',
      parentSpanId: null,
    });
  });
});
