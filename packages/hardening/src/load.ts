import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';
import type { ProtocolEra } from '@switchyard/server-kit/testing';
import { NORMAL_CALLS } from './faults.js';
import { callTool } from './harness/mcp-client.js';
import type { World } from './harness/world.js';
import { seededRandom } from './profile.js';
import { summarize, type LatencySummary } from './stats.js';

export interface LoadOptions {
  /** Concurrent clients, each with its own connection. */
  sessions: number;
  /** The era every client speaks. */
  era: ProtocolEra;
  seconds: number;
  seed: number;
  /** A launch run to poll (launch_get_status is part of the mix). */
  runId: string;
}

export interface LoadReport {
  sessions: number;
  era: ProtocolEra;
  seconds: number;
  calls: number;
  callsPerSecond: number;
  errors: number;
  /** The first few errors, for the failure message. */
  errorSamples: string[];
  latencyMs: LatencySummary;
  byTool: Record<string, LatencySummary>;
  rssKibStart: number | undefined;
  rssKibEnd: number | undefined;
}

/** The mixed workload: reads and writes of every domain, weighted the way an assistant would call them. */
function mix(
  journeyId: string,
  userId: string,
  runId: string,
  n: number,
): { name: string; args: Record<string, unknown> }[] {
  return [
    { name: 'query_journey_history', args: { journey_id: journeyId, query: 'tram physio', limit: 10 } },
    { name: 'query_journey_history', args: { journey_id: journeyId, limit: 20, include_documents: true } },
    {
      name: 'record_session',
      args: { journey_id: journeyId, summary: `load session ${n}: tram to the physio` },
    },
    { name: 'get_or_create_journey', args: { user_id: userId } },
    {
      name: 'save_user_variable',
      args: { key: `place-${n % 7}`, value: { type: 'location', lat: 60.17, lon: 24.94 } },
    },
    { name: 'get_user_variables', args: {} },
    { name: 'launch_get_status', args: { run_id: runId } },
    { name: 'launch_list_runs', args: { limit: 10 } },
    { name: 'planJourney', args: NORMAL_CALLS.planJourney! },
    { name: 'get_departures', args: NORMAL_CALLS.get_departures! },
    { name: 'find_stops', args: NORMAL_CALLS.find_stops! },
    { name: 'plan_trip', args: NORMAL_CALLS.plan_trip! },
  ];
}

/**
 * `sessions` concurrent MCP clients over Streamable HTTP (each its own Client and transport, all in
 * `era`) run the mixed workload for `seconds`, back to back; bounded in time, loopback only. Every call
 * must answer without isError; anything else counts as an error.
 */
export async function runLoad(world: World, options: LoadOptions): Promise<LoadReport> {
  const random = seededRandom(options.seed);
  const clients: Client[] = await Promise.all(
    Array.from({ length: options.sessions }, () => world.connect(options.era)),
  );
  const identities = await Promise.all(
    clients.map(async (client) => {
      const userId = randomUUID();
      const journey = await callTool(client, 'get_or_create_journey', { user_id: userId });
      return { userId, journeyId: journey.structured?.journey_id as string };
    }),
  );
  const rssKibStart = world.server.rssKib();
  const latencies: number[] = [];
  const byTool: Record<string, number[]> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    clients.map(async (client, index) => {
      const { journeyId, userId } = identities[index]!;
      for (let n = 0; performance.now() < deadline; n += 1) {
        const calls = mix(journeyId, userId, options.runId, n);
        const call = calls[Math.floor(random() * calls.length)]!;
        const began = performance.now();
        try {
          const answer = await callTool(client, call.name, call.args, { timeoutMs: 30_000 });
          world.scanner.scan(`load ${call.name}`, answer.structured);
          if (answer.isError) {
            errors += 1;
            if (errorSamples.length < 5)
              errorSamples.push(`${call.name}: ${JSON.stringify(answer.structured)}`);
          }
        } catch (error) {
          errors += 1;
          if (errorSamples.length < 5) errorSamples.push(`${call.name}: ${String(error)}`);
        }
        const elapsed = performance.now() - began;
        latencies.push(elapsed);
        (byTool[call.name] ??= []).push(elapsed);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rssKibEnd = world.server.rssKib();
  await Promise.all(clients.map((client) => client.close()));
  return {
    sessions: options.sessions,
    era: options.era,
    seconds,
    calls: latencies.length,
    callsPerSecond: latencies.length / seconds,
    errors,
    errorSamples,
    latencyMs: summarize(latencies),
    byTool: Object.fromEntries(Object.entries(byTool).map(([name, samples]) => [name, summarize(samples)])),
    rssKibStart,
    rssKibEnd,
  };
}

export function describeLoad(report: LoadReport): string {
  const ms = (v: number) => v.toFixed(1);
  const lines = [
    `load: ${report.sessions} clients for ${report.seconds.toFixed(1)} s over Streamable HTTP, ${report.era} era`,
    `  ${report.calls} calls, ${report.callsPerSecond.toFixed(0)} calls/s, ${report.errors} errors`,
    `  latency p50 ${ms(report.latencyMs.p50)} ms, p95 ${ms(report.latencyMs.p95)} ms, p99 ${ms(report.latencyMs.p99)} ms, max ${ms(report.latencyMs.max)} ms`,
    `  server RSS ${((report.rssKibStart ?? NaN) / 1024).toFixed(1)} MiB at the start, ${((report.rssKibEnd ?? NaN) / 1024).toFixed(1)} MiB at the end`,
    ...Object.entries(report.byTool).map(
      ([name, s]) =>
        `    ${name.padEnd(24)} n=${String(s.count).padStart(6)}  p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}`,
    ),
  ];
  return lines.join('\n');
}
