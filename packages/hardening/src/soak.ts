import type { Client } from '@modelcontextprotocol/client';
import { FAULTS, NORMAL_CALLS } from './faults.js';
import { callTool } from './harness/mcp-client.js';
import { openFileCount } from './harness/process-stats.js';
import type { World } from './harness/world.js';
import { classify } from './outcome.js';
import { toolContract } from './tools.js';

export const SOAK_TOOLS = ['planJourney', 'get_departures', 'plan_trip', 'find_stops'] as const;

export interface SoakResult {
  calls: number;
  /** Answers by code. */
  codes: Record<string, number>;
  /** Answers that were not a contract error (a success, an internal error, a contract violation, a throw). */
  unexpected: string[];
}

/**
 * `calls` failing calls spread over the four transit tools by `clients` concurrent sessions, with the
 * upstream fault switched every `phase` calls (every fault of the issue in turn, on both upstreams).
 */
export async function failingCalls(
  world: World,
  clients: readonly Client[],
  options: { calls: number; phase: number },
): Promise<SoakResult> {
  const result: SoakResult = { calls: 0, codes: {}, unexpected: [] };
  let issued = 0;
  let faultIndex = -1;
  const setFault = (index: number) => {
    const fault = FAULTS[index % FAULTS.length]!;
    const fallback = FAULTS.find((f) => f.name === 'malformed JSON')!;
    world.upstreams.reset();
    for (const upstream of ['tfl', 'digitransit'] as const) {
      (fault.upstreams.includes(upstream) ? fault : fallback).apply(world.upstreams, upstream);
    }
  };
  await Promise.all(
    clients.map(async (client) => {
      while (issued < options.calls) {
        const index = issued;
        issued += 1;
        const phase = Math.floor(index / options.phase);
        if (phase !== faultIndex) {
          faultIndex = phase;
          setFault(phase);
        }
        const tool = SOAK_TOOLS[index % SOAK_TOOLS.length]!;
        try {
          const answer = await callTool(client, tool, NORMAL_CALLS[tool]!, { timeoutMs: 60_000 });
          world.scanner.scan(`soak ${tool}`, answer.structured);
          const outcome = classify(toolContract(tool), answer);
          result.calls += 1;
          if (outcome.kind === 'error' && !outcome.internal && !outcome.validation) {
            result.codes[outcome.code] = (result.codes[outcome.code] ?? 0) + 1;
          } else if (result.unexpected.length < 10) {
            result.unexpected.push(
              `${tool} under ${FAULTS[phase % FAULTS.length]!.name}: ${JSON.stringify(outcome).slice(0, 300)}`,
            );
          }
        } catch (error) {
          if (result.unexpected.length < 10) result.unexpected.push(`${tool}: ${String(error)}`);
        }
      }
    }),
  );
  world.upstreams.reset();
  return result;
}

/** Waits until each transit tool answers a normal call with success (circuit breakers may need to half-open). */
export async function untilHealthy(world: World, client: Client, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const tool of SOAK_TOOLS) {
    for (;;) {
      const outcome = classify(toolContract(tool), await callTool(client, tool, NORMAL_CALLS[tool]!));
      if (outcome.kind === 'success') break;
      if (Date.now() > deadline)
        throw new Error(`${tool} still fails after the soak: ${JSON.stringify(outcome)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

export function serverFiles(world: World): number | undefined {
  return openFileCount(world.server.pid);
}
