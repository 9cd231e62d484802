import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';
import { quotingDraft } from '@switchyard/launch-runs';
import type { ProtocolEra } from '@switchyard/server-kit/testing';
import { NORMAL_CALLS } from '../faults.js';
import { callTool, connectHttp } from '../harness/mcp-client.js';
import { FIXTURES_DIR } from '../harness/paths.js';
import { startWorld } from '../harness/world.js';
import { exampleRepos, launchCall, readArtifact, runConfig, runStatus, waitForRest } from '../launch.js';
import { percentile } from '../stats.js';
import { TOOL_CONTRACTS } from '../tools.js';

export interface ToolBenchRow {
  /** The protocol era of both the tool's client and the floor's. */
  era: ProtocolEra;
  tool: string;
  domain: string;
  /** What the call does when it is not the plain case (e.g. an idempotent replay). */
  note: string;
  n: number;
  p50: number;
  p95: number;
  floorP50: number;
  floorP95: number;
}

interface Case {
  note: string;
  /** Arguments of call number `i` (setup done). */
  args: (i: number) => Record<string, unknown>;
}

async function startFloor(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(FIXTURES_DIR, 'floor-server.mjs')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /at (http:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`floor server exited (${String(code)}): ${stderr}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/**
 * Every tool of every domain through the combined server over Streamable HTTP, in each of `eras`: one
 * client calling in sequence, interleaved call by call with the floor (the same answer echoed by a bare SDK
 * server over the same transport, by a client of the same era). p50/p95 of each; the ratio is the cost of
 * Switchyard (validation, domain work, storage, the loopback upstream for transit tools) over a bare MCP
 * round trip of the same bytes.
 */
export async function benchEveryTool(options: {
  iterations: number;
  warmup: number;
  eras: readonly ProtocolEra[];
}): Promise<ToolBenchRow[]> {
  const world = await startWorld({
    name: 'bench',
    extraEnv: { SWITCHYARD_LOG_LEVEL: 'warn' },
  });
  const floor = await startFloor();
  const client = world.client;
  const total = options.iterations + options.warmup;
  try {
    const repos = await exampleRepos(path.join(world.dataDir, 'repos'));
    const config = runConfig(repos);
    const run = (
      await launchCall(client, 'launch_start_run', { run_config: config, idempotency_key: 'bench-run' })
    ).run_id as string;
    let status = await waitForRest(client, run);
    while (status.state === 'VALIDATING') {
      await launchCall(client, 'launch_fix_next', { run_id: run });
      status = await runStatus(client, run);
    }
    const validating = (
      await launchCall(client, 'launch_start_run', { run_config: runConfig(repos, { slug: 'tallyho-two' }) })
    ).run_id as string;
    await waitForRest(client, validating);
    const done = (
      await launchCall(client, 'launch_start_run', { run_config: runConfig(repos, { slug: 'tallyho-done' }) })
    ).run_id as string;
    await waitForRest(client, done);
    for (let s = await runStatus(client, done); s.state === 'VALIDATING'; s = await runStatus(client, done)) {
      await launchCall(client, 'launch_fix_next', { run_id: done });
    }
    await launchCall(client, 'launch_open_pr', { run_id: done });
    const cancelled = (
      await launchCall(client, 'launch_start_run', {
        run_config: runConfig(repos, { slug: 'tallyho-cancel' }),
      })
    ).run_id as string;
    await launchCall(client, 'launch_cancel', { run_id: cancelled });
    // A model-drafting run waiting for its pages, and a whole page of its brief with one made-up figure: the
    // verifier reads every sentence and refuses it, so the run waits on and the call repeats.
    const drafting = (
      await launchCall(client, 'launch_start_run', {
        run_config: runConfig(repos, { slug: 'tallyho-model', drafting: 'model' }),
      })
    ).run_id as string;
    await waitForRest(client, drafting);
    const brief = JSON.parse(await readArtifact(client, drafting, 'writing_brief.json')) as {
      pages: (Parameters<typeof quotingDraft>[0] & { page_id: string })[];
    };
    const briefPage = brief.pages[0]!;
    const refusedDraft = `${quotingDraft(briefPage)}\nIt retries a failed request 17 times.\n`;

    const journeyId = (
      await callTool(client, 'get_or_create_journey', { user_id: '6f1c2b7e-8d4a-4c3b-9a2e-1f0d3c4b5a69' })
    ).structured?.journey_id as string;
    for (let i = 0; i < 30; i += 1) {
      await callTool(client, 'record_session', {
        journey_id: journeyId,
        summary: `session ${i}: tram to the physio, knee exercises`,
      });
    }
    await callTool(client, 'save_user_variable', {
      key: 'home',
      value: { type: 'location', lat: 60.17, lon: 24.94 },
    });
    /** What each era's delete calls remove: its own journeys and saved places. */
    const disposables = async (era: ProtocolEra) => {
      const journeys: string[] = [];
      for (let i = 0; i < total; i += 1) {
        journeys.push((await callTool(client, 'get_or_create_journey', {})).structured?.journey_id as string);
        await callTool(client, 'save_user_variable', {
          key: `gone-${era}-${i}`,
          value: { type: 'location', lat: 60.17, lon: 24.94 },
        });
      }
      return { journeys, key: (i: number) => `gone-${era}-${i}` };
    };

    const casesFor = (doomed: { journeys: string[]; key: (i: number) => string }): Record<string, Case> => ({
      planJourney: { note: '', args: () => NORMAL_CALLS.planJourney! },
      get_london_arrivals: { note: 'TfL answer cache', args: () => NORMAL_CALLS.get_london_arrivals! },
      get_line_status: { note: 'TfL answer cache', args: () => NORMAL_CALLS.get_line_status! },
      find_london_stops: { note: 'TfL answer cache', args: () => NORMAL_CALLS.find_london_stops! },
      get_departures: { note: '', args: () => NORMAL_CALLS.get_departures! },
      plan_trip: { note: '', args: () => NORMAL_CALLS.plan_trip! },
      find_stops: { note: 'by name', args: () => NORMAL_CALLS.find_stops! },
      save_user_variable: {
        note: 'overwrite',
        args: () => ({ key: 'home', value: { type: 'location', lat: 60.17, lon: 24.94 } }),
      },
      get_user_variables: { note: '', args: () => ({}) },
      delete_user_variable: { note: '', args: (i) => ({ key: doomed.key(i) }) },
      launch_start_run: {
        note: 'idempotent replay',
        args: () => ({ run_config: config, idempotency_key: 'bench-run' }),
      },
      launch_get_status: { note: '', args: () => ({ run_id: run }) },
      launch_get_artifact: {
        note: 'page_plan.json',
        args: () => ({ run_id: run, artifact_name: 'page_plan.json' }),
      },
      launch_validate: { note: 'all gates', args: () => ({ run_id: run }) },
      launch_fix_next: { note: 'refused: ILLEGAL_STATE', args: () => ({ run_id: run }) },
      launch_resume: { note: 'run at rest', args: () => ({ run_id: validating }) },
      launch_cancel: { note: 'repeat', args: () => ({ run_id: cancelled }) },
      launch_open_pr: { note: 'repeat of a DONE run', args: () => ({ run_id: done }) },
      launch_list_runs: { note: '', args: () => ({ limit: 20 }) },
      launch_submit_draft: {
        note: 'a whole page, refused',
        args: () => ({ run_id: drafting, page: briefPage.page_id, markdown: refusedDraft }),
      },
      get_or_create_journey: {
        note: 'existing user',
        args: () => ({ user_id: '6f1c2b7e-8d4a-4c3b-9a2e-1f0d3c4b5a69' }),
      },
      query_journey_history: {
        note: 'keyword search',
        args: () => ({ journey_id: journeyId, query: 'knee physio', limit: 10 }),
      },
      add_document_to_journey: {
        note: '',
        args: (i) => ({
          journey_id: journeyId,
          document_type: 'note',
          title: `note ${i}`,
          content: 'rest and ice',
        }),
      },
      record_session: {
        note: '',
        args: (i) => ({ journey_id: journeyId, summary: `bench session ${i}: tram, knee` }),
      },
      delete_journey: { note: '', args: (i) => ({ journey_id: doomed.journeys[i] }) },
    });

    const rows: ToolBenchRow[] = [];
    for (const era of options.eras) {
      const cases = casesFor(await disposables(era));
      const eraClient = await world.connect(era);
      const floorClient = await connectHttp(floor.url, { era, name: 'bench-floor' });
      try {
        for (const tool of TOOL_CONTRACTS) {
          const benchCase = cases[tool.name];
          if (benchCase === undefined) throw new Error(`no benchmark case for ${tool.name}`);
          const iterations =
            tool.name === 'launch_validate'
              ? Math.max(5, Math.floor(options.iterations / 10))
              : options.iterations;
          const samples = await measureInterleaved(
            eraClient,
            floorClient,
            tool.name,
            benchCase,
            iterations,
            options.warmup,
          );
          rows.push({
            era,
            tool: tool.name,
            domain: tool.domain,
            note: benchCase.note,
            n: iterations,
            ...samples,
          });
        }
      } finally {
        await floorClient.close();
      }
    }
    return rows;
  } finally {
    floor.stop();
    await world.close();
  }
}

async function measureInterleaved(
  client: Client,
  floorClient: Client,
  name: string,
  benchCase: Case,
  iterations: number,
  warmup: number,
): Promise<Pick<ToolBenchRow, 'p50' | 'p95' | 'floorP50' | 'floorP95'>> {
  const tool: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < warmup + iterations; i += 1) {
    const began = performance.now();
    const answer = await callTool(client, name, benchCase.args(i), { timeoutMs: 120_000 });
    const elapsed = performance.now() - began;
    const expectedError = benchCase.note.startsWith('refused');
    if (answer.isError !== expectedError)
      throw new Error(`${name} answered unexpectedly: ${JSON.stringify(answer.structured)}`);
    const floorBegan = performance.now();
    await floorClient.callTool({ name: 'echo', arguments: { payload: answer.structured ?? {} } });
    const floorElapsed = performance.now() - floorBegan;
    if (i >= warmup) {
      tool.push(elapsed);
      floor.push(floorElapsed);
    }
  }
  return {
    p50: percentile(tool, 50),
    p95: percentile(tool, 95),
    floorP50: percentile(floor, 50),
    floorP95: percentile(floor, 95),
  };
}
