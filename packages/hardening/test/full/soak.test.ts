import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { MemoryAfterGc } from '../../src/harness/switchyard.js';
import { startWorld, type World } from '../../src/harness/world.js';
import { currentProfile } from '../../src/profile.js';
import { failingCalls, serverFiles, untilHealthy } from '../../src/soak.js';

/**
 * Memory under failure (pnpm hardening only): 10,000 failing calls over the four transit tools, every
 * upstream fault of the issue in turn on both upstreams, 16 concurrent clients. Memory is measured after
 * 2,000 warm-up calls and after every further 2,000, each time after V8's memory-reducing full GC in the
 * server (SIGUSR2 to the preloaded probe), so garbage, and pages V8 keeps for reuse, do not count as a leak:
 * - over the 10,000 calls, the live JS heap after GC may grow by at most HEAP_GROWTH_BOUND_MIB and the memory
 *   outside V8's heap (RSS after GC less what V8 holds for its heap: sockets, zlib, buffers, the allocator's
 *   arenas) by at most NATIVE_GROWTH_BOUND_MIB: a leak of 840 bytes per failing call exceeds either.
 *   Measured in five runs: outside the heap +1.1 to +3.4 MiB, heap used -0.1 to +0.9 MiB;
 * - open file descriptors (sockets to the upstreams) must not pile up.
 * Measured with a plain gc() and no successful call before the warm-up instead, the memory outside the heap
 * grew by 24-27 MiB (three runs), 20-23 MiB of it at the first checkpoint after the warm-up; none a leak:
 * 11-12 MiB of freed V8 pages kept for reuse (out of heapTotal, unmapped by the memory-reducing GC), 3.5 MiB
 * of young-generation pages heapTotal already counted, 5.6 MiB of the node binary's ICU data (time zones,
 * collation) paged in by the first successful calls, and 2 MiB of malloc. Anonymous memory after the
 * memory-reducing GC and a malloc_trim was 59.1, 59.3 and 61.0 MiB after 0, 2,000 and 6,000 calls.
 */
const NATIVE_GROWTH_BOUND_MIB = 8;
const HEAP_GROWTH_BOUND_MIB = 8;
const FD_GROWTH_BOUND = 32;
const CHECKPOINT_CALLS = 2000;
/** Calls under each fault before the next (every fault of the issue in turn). */
const FAULT_PHASE_CALLS = 250;
/** The warm-up runs one checkpoint's worth of the very schedule measured afterwards. */
const WARMUP_CALLS = CHECKPOINT_CALLS;
const profile = currentProfile();
let world: World;
let clients: Client[];

beforeAll(async () => {
  world = await startWorld({ name: 'soak', upstreamTimeoutMs: 200 });
  clients = await Promise.all(Array.from({ length: 16 }, () => world.connect()));
});

afterAll(async () => {
  await world?.close();
});

const mib = (bytes: number) => bytes / 1024 / 1024;
const outsideHeap = (memory: MemoryAfterGc) => memory.rss - memory.heapTotal;

describe('memory across failing calls', () => {
  it.runIf(profile.soakFailingCalls > 0)(
    `${profile.soakFailingCalls} failing calls: memory flat after GC, every answer a contract error`,
    async () => {
      // Like every chunk, the warm-up starts with successful calls: their first ones page in ICU data and
      // allocate its objects once.
      await untilHealthy(world, world.client);
      const warmup = await failingCalls(world, clients, { calls: WARMUP_CALLS, phase: FAULT_PHASE_CALLS });
      expect(warmup.unexpected).toEqual([]);
      // Measured straight after the warm-up, as every later checkpoint is straight after its calls.
      const checkpoints: MemoryAfterGc[] = [await world.server.memoryAfterGc()];
      const rawRssBefore = world.server.rssKib()!;
      const filesBefore = serverFiles(world)!;
      const codes: Record<string, number> = {};
      let calls = 0;
      while (calls < profile.soakFailingCalls) {
        const chunk = Math.min(CHECKPOINT_CALLS, profile.soakFailingCalls - calls);
        // Every chunk starts with the circuit breakers closed, so that its first faults reach the upstreams
        // rather than the breakers' fast refusals.
        await untilHealthy(world, world.client);
        const soak = await failingCalls(world, clients, { calls: chunk, phase: FAULT_PHASE_CALLS });
        expect(soak.unexpected).toEqual([]);
        for (const [code, n] of Object.entries(soak.codes)) codes[code] = (codes[code] ?? 0) + n;
        calls += soak.calls;
        checkpoints.push(await world.server.memoryAfterGc());
      }
      const rawRssAfter = world.server.rssKib()!;
      const filesAfter = serverFiles(world)!;
      const first = checkpoints[0]!;
      const last = checkpoints.at(-1)!;
      const rssGrowth = mib(last.rss - first.rss);
      const nativeGrowth = mib(outsideHeap(last) - outsideHeap(first));
      const heapGrowth = mib(last.heapUsed - first.heapUsed);
      console.log(
        `soak: ${calls} failing calls, codes ${JSON.stringify(codes)}\n` +
          `  RSS after GC (MiB) at 0, 2k, ... calls: ${checkpoints.map((c) => mib(c.rss).toFixed(1)).join(', ')}\n` +
          `  heap used after GC (MiB): ${checkpoints.map((c) => mib(c.heapUsed).toFixed(1)).join(', ')}\n` +
          `  heap total after GC (MiB): ${checkpoints.map((c) => mib(c.heapTotal).toFixed(1)).join(', ')}\n` +
          `  external after GC (MiB): ${checkpoints.map((c) => mib(c.external + c.arrayBuffers).toFixed(1)).join(', ')}\n` +
          `  outside V8's heap after GC (MiB): ${checkpoints.map((c) => mib(outsideHeap(c)).toFixed(1)).join(', ')}\n` +
          `  growth: outside the heap ${nativeGrowth.toFixed(1)} MiB (bound ${NATIVE_GROWTH_BOUND_MIB}), heap used ${heapGrowth.toFixed(1)} MiB (bound ${HEAP_GROWTH_BOUND_MIB}), RSS ${rssGrowth.toFixed(1)} MiB; ` +
          `RSS without GC ${(rawRssBefore / 1024).toFixed(1)} -> ${(rawRssAfter / 1024).toFixed(1)} MiB; open files ${filesBefore} -> ${filesAfter}`,
      );
      expect(calls).toBe(profile.soakFailingCalls);
      expect(nativeGrowth).toBeLessThan(NATIVE_GROWTH_BOUND_MIB);
      expect(heapGrowth).toBeLessThan(HEAP_GROWTH_BOUND_MIB);
      expect(filesAfter - filesBefore).toBeLessThan(FD_GROWTH_BOUND);
      await untilHealthy(world, world.client);
      world.assertHealthy();
      world.scanLogs();
      expect(world.scanner.found()).toEqual([]);
    },
  );
});
