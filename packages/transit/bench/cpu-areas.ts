// Where a server's CPU goes over calls: the server runs under `node --cpu-prof`, a client makes warm-up calls
// and then the measured calls, and the samples taken between the first and the last measured call are summed
// by area and by function, per call (server-kit's cpuByArea). Used by `profile` (one bin, in depth) and by
// `bench` (the bin beside the bare SDK tool, so that the report shows which part of a missed target is ours).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import {
  cpuByArea,
  cpuProfileArgs,
  monotonicMicros,
  writtenProfiles,
  type CpuSummary,
} from '@switchyard/server-kit/testing';
import { startServer, type ServerStart } from './servers.js';

export interface ProfileRun {
  server: ServerStart;
  warmup: number;
  calls: number;
  /** Calls in flight at once (default 1): the warm-up and the measured calls are shared among as many callers. */
  callers?: number;
  /** One call through the connected client. */
  call: (client: Client) => Promise<void>;
}

/** Makes `calls` calls, `callers` of them in flight at once. */
async function callsInFlight(calls: number, callers: number, call: () => Promise<void>): Promise<void> {
  let started = 0;
  const caller = async (): Promise<void> => {
    while (started < calls) {
      started += 1;
      await call();
    }
  };
  await Promise.all(Array.from({ length: Math.min(callers, calls) }, caller));
}

/** Starts the server under --cpu-prof, makes the calls, and sums the measured calls' samples. */
export async function profileCalls(run: ProfileRun): Promise<CpuSummary & { file: string }> {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-cpuprofile-'));
  const server = await startServer(run.server, cpuProfileArgs(profileDir));
  let fromUs: number;
  let toUs: number;
  try {
    await callsInFlight(run.warmup, run.callers ?? 1, () => run.call(server.client));
    fromUs = monotonicMicros();
    await callsInFlight(run.calls, run.callers ?? 1, () => run.call(server.client));
    toUs = monotonicMicros();
  } finally {
    await server.close();
  }
  // The process that served the calls is the last one started (the modern stdio client probes on another).
  const { file, profile } = (await writtenProfiles(profileDir)).at(-1)!;
  return { ...cpuByArea(profile, { fromUs, toUs, per: run.calls }), file };
}
