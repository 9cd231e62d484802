import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { rawHttpRequest } from '@switchyard/server-kit/testing';
import { otpReply, reply } from '@switchyard/upstream-mocks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRepos, runConfig, waitForRest } from '../src/launch.js';
import { callTool } from '../src/harness/mcp-client.js';
import { peakRssKib, resetPeakRss } from '../src/harness/process-stats.js';
import { LEGACY_HEADERS, MCP_HEADERS, modernBody, modernHeaders } from '../src/harness/raw-http.js';
import { startWorld, type World } from '../src/harness/world.js';
import { recordFindings, type FindingRow } from '../src/report/findings.js';
import { SENTINELS } from '../src/sentinels.js';

/**
 * A small request must not buy a large answer (issue #34): for each tool of each domain, and for
 * `resources/read`, the largest answer a caller can make the combined server give, through the spawned bin
 * over HTTP. Every answer stays within the answer limit (SWITCHYARD_MAX_ANSWER_BYTES, 1 MiB by default) plus
 * the JSON-RPC envelope, and the server's peak RSS while answering stays far from what an 81 MiB answer took.
 * Each measurement is a row of docs/hardening.md's amplification table (`pnpm hardening:report`).
 */
const LIMIT = 1024 * 1024;
/** The JSON-RPC envelope and SSE framing around an answer's result. */
const ENVELOPE = 16 * 1024;
/** Peak RSS while answering: the server idles near 150 MiB; one 81 MiB answer took it past 600 MiB. */
const RSS_CEILING_MIB = 450;
/** The text JSON escapes the most: a control character is six bytes in JSON and seven more in a mirror. */
const WORST = (chars: number) => '\u0001'.repeat(chars);

type Row = FindingRow<'amplification'>;
const rows: Row[] = [];
let world: World;

interface Measured {
  status: number;
  body: string;
  row: Row;
}

/** One POST to the server: bytes in and out, and the server's peak RSS while it answered. */
async function measure(
  domain: string,
  call: string,
  worstCase: string,
  body: string,
  headers: Record<string, string>,
): Promise<Measured> {
  const pid = world.server.pid;
  resetPeakRss(pid);
  const response = await rawHttpRequest(world.server.url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${SENTINELS.switchyardToken}`, ...headers },
    body,
  });
  const peak = peakRssKib(pid) ?? 0;
  const row: Row = {
    domain,
    call,
    'worst case': worstCase,
    'bytes in': Buffer.byteLength(body),
    'bytes out': Buffer.byteLength(response.body),
    'peak RSS MiB': Math.round(peak / 1024),
  };
  rows.push(row);
  return { status: response.status, body: response.body, row };
}

/** A tool call in the 2026 era, measured and held to the limits. */
async function toolCall(domain: string, worstCase: string, name: string, args: Record<string, unknown>) {
  const measured = await measure(
    domain,
    name,
    worstCase,
    modernBody('tools/call', { name, arguments: args }),
    modernHeaders('tools/call', name),
  );
  expect(measured.status).toBe(200);
  expect(measured.row['bytes out']).toBeLessThanOrEqual(LIMIT + ENVELOPE);
  expect(measured.row['peak RSS MiB']).toBeLessThan(RSS_CEILING_MIB);
  return resultOf(measured.body);
}

/** A resource read in the 2026 era, measured and held to the limits. */
async function resourceRead(domain: string, worstCase: string, uri: string) {
  const measured = await measure(
    domain,
    'resources/read',
    worstCase,
    modernBody('resources/read', { uri }),
    modernHeaders('resources/read', uri),
  );
  expect(measured.status).toBe(200);
  expect(measured.row['bytes out']).toBeLessThanOrEqual(LIMIT + ENVELOPE);
  expect(measured.row['peak RSS MiB']).toBeLessThan(RSS_CEILING_MIB);
  return resultOf(measured.body);
}

/** The `result` of a JSON-RPC answer sent as JSON or as one server-sent event. */
function resultOf(body: string): Record<string, unknown> {
  const json = body.trimStart().startsWith('{')
    ? body
    : (body.split('\n').find((line) => line.startsWith('data: ')) ?? '').slice('data: '.length);
  const message = JSON.parse(json) as { result?: Record<string, unknown>; error?: unknown };
  if (message.result === undefined) throw new Error(`no result: ${JSON.stringify(message.error)}`);
  return message.result;
}

beforeAll(async () => {
  // The journey holds 100 summaries of 64 KiB: more text than JOURNEY_MAX_TEXT_BYTES allows by default,
  // so the operator here allows it (the answer limit must hold whatever the journey bounds are).
  world = await startWorld({
    name: 'amplification',
    era: 'modern',
    extraEnv: { JOURNEY_MAX_TEXT_BYTES: String(32 * 1024 * 1024) },
  });
});

afterAll(async () => {
  recordFindings('amplification', rows);
  world?.assertHealthy();
  world?.scanLogs();
  await world?.close();
});

describe('journey-continuity', () => {
  let journeyId: string;
  beforeAll(async () => {
    const journey = await callTool(world.client, 'get_or_create_journey', {
      user_id: '7f1c0c4e-6a55-4d8c-9d8b-2f3c4b5a6d7e',
    });
    journeyId = journey.structured?.journey_id as string;
    const summary = `a${WORST(64 * 1024 - 2)}b`;
    for (let i = 0; i < 100; i++) {
      const recorded = await callTool(world.client, 'record_session', { journey_id: journeyId, summary });
      expect(recorded.isError).toBe(false);
      const added = await callTool(world.client, 'add_document_to_journey', {
        journey_id: journeyId,
        document_type: 'note',
        title: `a${WORST(498)}b`,
        content: `a ${WORST(4094)} b`,
      });
      expect(added.isError).toBe(false);
    }
  }, 300_000);

  it('query_journey_history: 100 sessions of 64 KiB and 100 documents, all asked for at once', async () => {
    const result = await toolCall(
      'journey-continuity',
      '100 sessions of 64 KiB control characters, 100 documents with 500-character titles, limit 100',
      'query_journey_history',
      { journey_id: journeyId, limit: 100, include_documents: true },
    );
    expect(result.isError).toBeFalsy();
  });

  it('query_journey_history: a query every session matches', async () => {
    const result = await toolCall(
      'journey-continuity',
      'the same journey, a query matching every session and document',
      'query_journey_history',
      { journey_id: journeyId, query: 'a b', limit: 100, include_documents: true },
    );
    expect(result.isError).toBeFalsy();
  });

  it('the other journey tools at their largest inputs', async () => {
    const metadata = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, WORST(1300)]));
    for (const [worst, name, args] of [
      ['a user id', 'get_or_create_journey', { user_id: '7f1c0c4e-6a55-4d8c-9d8b-2f3c4b5a6d7e' }],
      [
        'a note with the largest metadata, echoed back',
        'add_document_to_journey',
        { journey_id: journeyId, document_type: 'note', title: WORST(500), metadata },
      ],
      [
        'a 64 KiB summary with messages and a diagnosis',
        'record_session',
        {
          journey_id: journeyId,
          summary: `a${WORST(64 * 1024 - 2)}b`,
          messages: [WORST(1000)],
          diagnosis: { note: WORST(1000) },
        },
      ],
    ] as const) {
      expect((await toolCall('journey-continuity', worst, name, args)).isError).toBeFalsy();
    }
  });

  it('a 2025-era batch of 40 of the largest searches is answered within one answer limit', async () => {
    const batch = Array.from({ length: 40 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: {
        name: 'query_journey_history',
        arguments: { journey_id: journeyId, limit: 100, include_documents: true },
      },
    }));
    const measured = await measure(
      'journey-continuity',
      'query_journey_history x 40 (batch)',
      'one 2025-era JSON-RPC batch of 40 of the largest searches',
      JSON.stringify(batch),
      LEGACY_HEADERS,
    );
    expect(measured.status).toBe(200);
    expect(measured.row['bytes out']).toBeLessThanOrEqual(LIMIT + 40 * 1024);
    expect(measured.row['peak RSS MiB']).toBeLessThan(RSS_CEILING_MIB);
  });

  it('resources/read: a session with a 64 KiB summary and 1 MiB of messages, all control characters', async () => {
    const recorded = await callTool(world.client, 'record_session', {
      journey_id: journeyId,
      summary: `a${WORST(64 * 1024 - 2)}b`,
      messages: [WORST(174_000)],
    });
    expect(recorded.isError, recorded.text).toBe(false);
    const sessionId = recorded.structured?.session_id as string;
    const result = await resourceRead(
      'journey-continuity',
      'a session of a 64 KiB summary and 1 MiB of messages (as JSON) of control characters, its first part',
      `journey://sessions/${sessionId}`,
    );
    const [content] = result.contents as { _meta?: Record<string, string> }[];
    expect(content?._meta?.['io.github.switchyard-mcp/next-uri']).toBeDefined();
  });

  it('delete_journey last', async () => {
    await toolCall('journey-continuity', 'a journey of 100 sessions and documents', 'delete_journey', {
      journey_id: journeyId,
    });
  });
});

describe('launch-runs', () => {
  let runId: string;
  beforeAll(async () => {
    const repos = await exampleRepos(path.join(world.dataDir, 'repos'));
    // A product with many files of long names: the run's inventory lists every one. Written without blocking
    // the event loop: blocked past the server's keep-alive timeout, the client would not see the server close
    // its idle connection, and would send the next call on it ("other side closed").
    const data = path.join(repos.sourceRepo, 'data');
    await fs.promises.mkdir(data);
    for (let i = 0; i < 4_000; i++) {
      await fs.promises.writeFile(
        path.join(data, `${String(i).padStart(5, '0')}-${'n'.repeat(240)}.txt`),
        `${i}\n`,
      );
    }
    const git = promisify(execFile);
    await git('git', ['add', '-A'], { cwd: repos.sourceRepo });
    await git('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'data'], {
      cwd: repos.sourceRepo,
    });
    const started = await callTool(world.client, 'launch_start_run', { run_config: runConfig(repos) });
    runId = started.structured?.run_id as string;
    if (runId === undefined) throw new Error(`the run did not start: ${JSON.stringify(started.structured)}`);
    await waitForRest(world.client, runId, 240_000);
  }, 300_000);

  it('launch_get_artifact: the inventory of a product of 4,000 files', async () => {
    const result = await toolCall(
      'launch-runs',
      'repo_inventory.json of a product with 4,000 files (several MiB), from its start',
      'launch_get_artifact',
      { run_id: runId, artifact_name: 'repo_inventory.json' },
    );
    const payload = result.structuredContent as { next_offset: number | null };
    expect(payload.next_offset).toBeGreaterThan(0);
  });

  it('resources/read: the same artifact, and the event log', async () => {
    await resourceRead(
      'launch-runs',
      'repo_inventory.json of a product with 4,000 files',
      `launch://runs/${runId}/artifacts/repo_inventory.json`,
    );
    await resourceRead('launch-runs', 'the event log of that run', `launch://runs/${runId}/events.ndjson`);
  });

  it('the run tools at their largest', async () => {
    for (const [worst, name] of [
      ['that run, validated', 'launch_validate'],
      ['that run', 'launch_get_status'],
      ['that run, resumed', 'launch_resume'],
      ['that run (refused in its state, or its fix)', 'launch_fix_next'],
      ['that run (refused before READY_FOR_PR, or the PR)', 'launch_open_pr'],
    ] as const) {
      await toolCall('launch-runs', worst, name, { run_id: runId });
    }
    await toolCall('launch-runs', 'a page of 50 runs', 'launch_list_runs', { limit: 50 });
    await toolCall('launch-runs', 'that run', 'launch_cancel', { run_id: runId });
  });

  it('launch_start_run: the largest run_config', async () => {
    const repos = await exampleRepos(path.join(world.dataDir, 'repos-start'));
    const config = {
      ...runConfig(repos, { slug: 'start-worst' }),
      product_name: `a${WORST(198)}b`,
    };
    await toolCall('launch-runs', 'a run_config with a 200-character product name', 'launch_start_run', {
      run_config: config,
      idempotency_key: WORST(200),
    });
  });
});

describe('transit', () => {
  const tflLine = JSON.parse(
    fs.readFileSync(
      createRequire(import.meta.url).resolve('@switchyard/upstream-mocks/fixtures/tfl/line-status.json'),
      'utf8',
    ),
  )[0] as Record<string, unknown>;

  it('get_line_status: every line of every mode, each with a long disruption (a 7 MiB TfL answer)', async () => {
    const lines = Array.from({ length: 600 }, (_, i) => ({
      ...tflLine,
      id: `line-${i}`,
      name: `Line ${i}`,
      lineStatuses: [
        {
          statusSeverity: 6,
          statusSeverityDescription: 'Severe Delays',
          reason: WORST(2000),
          validityPeriods: [],
        },
      ],
    }));
    world.upstreams.tfl.scenario(() => reply.json(200, lines));
    const result = await toolCall(
      'transit',
      '600 lines, each with a 2,000-character reason of control characters',
      'get_line_status',
      { modes: ['bus', 'tube'] },
    );
    expect((result.structuredContent as { success: boolean }).success).toBe(true);
    world.upstreams.tfl.reset();
  });

  it('get_london_arrivals: 50 arrivals with long destinations (a 7 MiB TfL answer)', async () => {
    const now = Date.now();
    const predictions = Array.from({ length: 200 }, (_, i) => ({
      naptanId: '940GZZLUOXC',
      stationName: 'Oxford Circus Underground Station',
      lineId: 'victoria',
      lineName: 'Victoria',
      platformName: WORST(1500),
      direction: 'outbound',
      destinationName: WORST(1500),
      towards: WORST(1500),
      currentLocation: WORST(1500),
      timeToStation: 60 + i,
      expectedArrival: new Date(now + (60 + i) * 1000).toISOString(),
      timestamp: new Date(now).toISOString(),
      timeToLive: new Date(now + 120_000).toISOString(),
      modeName: 'tube',
    }));
    world.upstreams.tfl.scenario(() => reply.json(200, predictions));
    const result = await toolCall(
      'transit',
      '200 predictions, four 1,500-character fields each, limit 50',
      'get_london_arrivals',
      { stop: { type: 'id', value: '940GZZLUOXC' }, limit: 50 },
    );
    expect((result.structuredContent as { success: boolean }).success).toBe(true);
    world.upstreams.tfl.reset();
  });

  it('get_departures: 50 departures with long headsigns (Digitransit)', async () => {
    const serviceDay = Math.floor(Date.now() / 1000) - 3600;
    const departures = Array.from({ length: 50 }, (_, i) => ({
      serviceDay,
      scheduledDeparture: 3600 + 120 + 60 * i,
      realtimeDeparture: 3600 + 120 + 60 * i,
      realtime: false,
      realtimeState: 'SCHEDULED',
      headsign: WORST(8000),
      trip: { tripHeadsign: WORST(8000), route: { gtfsId: `HSL:${i}`, shortName: `${i}`, mode: 'BUS' } },
    }));
    world.upstreams.digitransit.scenario((request) =>
      otpReply(request, {
        data: { stop: { gtfsId: 'HSL:1040129', name: WORST(8000), stoptimesWithoutPatterns: departures } },
      }),
    );
    const result = await toolCall(
      'transit',
      '50 departures with 8,000-character headsigns of control characters, limit 50',
      'get_departures',
      { stop: { type: 'id', value: 'HSL:1040129' }, limit: 50, windowMinutes: 120 },
    );
    expect(result.isError, JSON.stringify(result.structuredContent).slice(0, 600)).toBeFalsy();
    world.upstreams.digitransit.reset();
  });

  it('find_stops: 50 stops with long names (Digitransit)', async () => {
    const stops = Array.from({ length: 50 }, (_, i) => ({
      gtfsId: `HSL:${1000 + i}`,
      name: WORST(16000),
      code: `H${i}`,
      platformCode: null,
      lat: 60.17,
      lon: 24.94,
      vehicleMode: 'BUS',
    }));
    world.upstreams.digitransit.scenario((request) => otpReply(request, { data: { stops } }));
    const result = await toolCall('transit', '50 stops with 16,000-character names', 'find_stops', {
      name: 'Ka',
      limit: 50,
    });
    expect(result.isError, JSON.stringify(result.structuredContent).slice(0, 600)).toBeFalsy();
    world.upstreams.digitransit.reset();
  });

  it('saved places: 500 places with the longest names and addresses, listed at once', async () => {
    for (let i = 0; i < 500; i++) {
      const saved = await callTool(world.client, 'save_user_variable', {
        key: `place ${String(i).padStart(3, '0')}`,
        value: { type: 'location', lat: 60.17, lon: 24.94, name: WORST(200), address: WORST(300) },
      });
      expect(saved.isError, saved.text).toBe(false);
    }
    const listed = await toolCall(
      'transit',
      '500 saved places, each a 200-character name and 300-character address of control characters',
      'get_user_variables',
      {},
    );
    expect((listed.structuredContent as { next_cursor: string | null }).next_cursor).not.toBeNull();
    await toolCall('transit', 'the longest name and address', 'save_user_variable', {
      key: WORST(50),
      value: { type: 'location', lat: 60.17, lon: 24.94, name: WORST(200), address: WORST(300) },
    });
    await toolCall('transit', 'a place with the longest name and address', 'delete_user_variable', {
      key: WORST(50),
    });
  }, 300_000);

  it('the other transit tools on the stand-ins’ largest recorded answers', async () => {
    for (const [worst, name, args] of [
      ['the recorded TfL journeys', 'planJourney', { from: "King's Cross", to: 'Waterloo' }],
      [
        'stops within 2 km, limit 50',
        'find_london_stops',
        { near: { lat: 51.5154, lon: -0.1415 }, radiusMeters: 2000, limit: 50 },
      ],
      [
        'the recorded itineraries, limit 3',
        'plan_trip',
        {
          origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } },
          destination: { type: 'coords', value: { lat: 60.2055, lon: 24.6559 } },
          limit: 3,
        },
      ],
    ] as const) {
      await toolCall('transit', worst, name, args);
    }
  });
});
