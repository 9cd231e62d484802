// LaunchTelemetry's own rules, on a real SQLite file: when a batch of finished spans is written, what happens
// to spans after shutdown, and a store that fails. The end-to-end spans of tool calls are telemetry.test.ts's.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { launchDb } from '../src/db/drizzle.js';
import { openLaunchDatabase } from '../src/db/open.js';
import { spans } from '../src/db/schema.js';
import { LaunchTelemetry } from '../src/telemetry/telemetry.js';
import { tempDir } from './support/harness.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function telemetryOnDisk(otlpTracesUrl?: string) {
  const dataDir = tempDir('telemetry-rules');
  const database = openLaunchDatabase(dataDir);
  cleanups.push(() => {
    if (database.sqlite.open) database.sqlite.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const errors: string[] = [];
  const telemetry = new LaunchTelemetry({
    sqlite: database.sqlite,
    serviceName: 'switchyard-launch',
    serviceVersion: '0.0.0',
    errorCodeOf: () => 'INTERNAL',
    onError: (message) => errors.push(message),
    ...(otlpTracesUrl === undefined ? {} : { otlpTracesUrl }),
  });
  const stored = () => launchDb(database.sqlite).select().from(spans).all();
  const span = (tool: string) =>
    telemetry.inSpan(`launch.tool ${tool}`, { kind: 'tool', tool }, async () => {});
  return { telemetry, sqlite: database.sqlite, errors, stored, span };
}

describe('LaunchTelemetry batches', () => {
  it('writes finished spans on the 256th, or when the 250 ms timer fires, whichever comes first', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { stored, span } = telemetryOnDisk();
    for (let i = 0; i < 255; i += 1) await span(`t${i}`);
    expect(stored()).toHaveLength(0);
    // One timer for the whole batch, not one per span.
    expect(vi.getTimerCount()).toBe(1);
    await span('t255');
    expect(stored()).toHaveLength(256);
    await span('late');
    expect(stored()).toHaveLength(256);
    vi.advanceTimersByTime(249);
    expect(stored()).toHaveLength(256);
    vi.advanceTimersByTime(1);
    expect(stored()).toHaveLength(257);
  });

  it('drops spans that end after shutdown: the database is about to close', async () => {
    const { telemetry, stored, span, errors } = telemetryOnDisk();
    await span('before');
    await telemetry.shutdown();
    await span('after');
    await telemetry.flush();
    expect(stored().map((row) => row.tool)).toEqual(['before']);
    expect(errors).toEqual([]);
  });

  it('reports a span store that fails, and the work it measured still answers', async () => {
    const { telemetry, sqlite, errors, span } = telemetryOnDisk();
    await span('doomed');
    sqlite.close();
    await expect(telemetry.flush()).resolves.toBeUndefined();
    expect(errors).toEqual(['could not store a span']);
    await expect(
      telemetry.inSpan('launch.tool x', { kind: 'tool', tool: 'x' }, async () => 'answer'),
    ).resolves.toBe('answer');
  });

  it('stores absent and empty fields as NULL, and the code of what the work threw', async () => {
    const { telemetry, stored } = telemetryOnDisk();
    await telemetry.inSpan('launch.tool y', { kind: 'tool', tool: 'y', runId: '' }, async () => {});
    const failing = telemetry.inSpan(
      'launch.worker W1 inputs',
      { kind: 'worker', worker: 'W1' },
      async () => {
        throw new Error('boom');
      },
    );
    await expect(failing).rejects.toThrow('boom');
    await telemetry.flush();
    const rows = stored();
    expect(rows.find((row) => row.tool === 'y')).toMatchObject({
      runId: null,
      worker: null,
      outcome: 'ok',
      errorCode: null,
    });
    expect(rows.find((row) => row.worker === 'W1')).toMatchObject({
      tool: null,
      outcome: 'error',
      errorCode: 'INTERNAL',
    });
  });
});

/** A span as OTLP/HTTP JSON carries it (the fields these tests read). */
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status: { code?: number; message?: string };
  attributes: { key: string; value: { stringValue?: string } }[];
}

/** A collector on loopback that keeps every span it is sent. */
async function collector(): Promise<{ url: string; spans: OtlpSpan[] }> {
  const received: OtlpSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans)
        for (const scope of resource.scopeSpans) received.push(...scope.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => void server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans: received };
}

const attribute = (span: OtlpSpan | undefined, key: string) =>
  span?.attributes.find((entry) => entry.key === key)?.value.stringValue;

describe('LaunchTelemetry over OTLP', () => {
  it('exports each span with the ids, parent, outcome and status it was stored with', async () => {
    const { url, spans: exported } = await collector();
    const { telemetry, stored } = telemetryOnDisk(url);
    await telemetry.inSpan(
      'launch.tool launch_validate',
      { kind: 'tool', tool: 'launch_validate' },
      async () => {
        await telemetry.inSpan('launch.worker W7 validate', { kind: 'worker', worker: 'W7' }, async () => {});
      },
    );
    await telemetry.inSpan(
      'launch.tool launch_get_status',
      { kind: 'tool', tool: 'launch_get_status' },
      async (span) => span.fail('RUN_NOT_FOUND', 'handler'),
    );
    await telemetry.flush();
    const rows = stored();
    const byName = (name: string) => exported.find((span) => span.name === name);
    const tool = byName('launch.tool launch_validate');
    const worker = byName('launch.worker W7 validate');
    const failed = byName('launch.tool launch_get_status');
    expect(exported).toHaveLength(3);
    for (const span of exported) {
      const row = rows.find((candidate) => candidate.spanId === span.spanId);
      expect(row, span.name).toMatchObject({
        traceId: span.traceId,
        parentSpanId: span.parentSpanId ?? null,
      });
    }
    expect(worker?.parentSpanId).toBe(tool?.spanId);
    expect(tool?.parentSpanId ?? '').toBe('');
    // SpanStatusCode: 1 OK, 2 ERROR.
    expect([tool?.status.code, attribute(tool, 'launch.outcome')]).toEqual([1, 'ok']);
    expect(failed?.status).toMatchObject({ code: 2, message: 'RUN_NOT_FOUND' });
    expect(attribute(failed, 'launch.outcome')).toBe('error');
    expect(attribute(failed, 'launch.error_code')).toBe('RUN_NOT_FOUND');
    expect(attribute(worker, 'launch.worker')).toBe('W7');
    expect(attribute(worker, 'launch.span_kind')).toBe('worker');
    await telemetry.shutdown();
  });
});
