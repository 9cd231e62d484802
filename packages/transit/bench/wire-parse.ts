// Where planJourney's own work on a TfL answer goes, in process: the recorded ItineraryResult (the body the
// TfL stand-in serves) parsed with the wire schema and mapped to the contract's journeys, each step on its own
// over WIRE_CALLS calls (default 2,000, after 200 warm-up calls). Prints CPU and allocation per call for each
// step and the functions that allocated most; allocation is the inspector's sampling heap profiler with the
// objects collected by young and old GC included, so it counts what a call allocates, not what it keeps.
//   pnpm --filter @switchyard/transit run profile:wire [calls]
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseTfl } from '../src/tfl/client.js';
import { topJourneys } from '../src/tfl/plan-journey.js';
import { ItineraryResultSchema } from '../src/tfl/wire.js';

const calls = Number(process.argv[2] ?? process.env.WIRE_CALLS ?? 2_000);
const WARMUP = 200;
/** Bytes between heap samples: small enough that a call's allocations are sampled many times. */
const SAMPLING_INTERVAL = 256;
const TOP_SITES = 8;

const fixture = createRequire(import.meta.url).resolve(
  '@switchyard/upstream-mocks/fixtures/tfl/itinerary-result.json',
);
const bytes = fs.readFileSync(fixture);
const body: unknown = JSON.parse(bytes.toString('utf8'));
const parsed = parseTfl(ItineraryResultSchema, body, 'journey result');

const STEPS: Record<string, () => unknown> = {
  'wire parse': () => parseTfl(ItineraryResultSchema, body, 'journey result'),
  'map to journeys': () => topJourneys(parsed.journeys),
};

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** Sampled bytes by the function that allocated them (name, file and line). */
function bytesBySite(node: HeapNode, sites = new Map<string, number>()): Map<string, number> {
  const { functionName, url, lineNumber } = node.callFrame;
  const site = `${functionName || '(anonymous)'} ${path.basename(url)}:${lineNumber + 1}`;
  sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
  for (const child of node.children) bytesBySite(child, sites);
  return sites;
}

const session = new Session();
session.connect();

interface StepCost {
  cpuMs: number;
  allocatedKiB: number;
  /** KiB per call by allocating function, most first. */
  sites: [string, number][];
}

async function measure(step: () => unknown): Promise<StepCost> {
  for (let i = 0; i < WARMUP; i += 1) step();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < calls; i += 1) step();
  const cpu = process.cpuUsage(cpuBefore);
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < calls; i += 1) step();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const sites = [...bytesBySite(profile.head as HeapNode)]
    .map(([site, bytes]): [string, number] => [site, bytes / 1024 / calls])
    .sort((a, b) => b[1] - a[1]);
  return {
    cpuMs: (cpu.user + cpu.system) / 1000 / calls,
    allocatedKiB: sites.reduce((sum, [, kib]) => sum + kib, 0),
    sites,
  };
}

console.log(`TfL ItineraryResult, ${bytes.length} bytes, ${calls} calls per step (Node ${process.version})`);
for (const [name, step] of Object.entries(STEPS)) {
  const { cpuMs, allocatedKiB, sites } = await measure(step);
  console.log(
    `${name}: CPU ${cpuMs.toFixed(3)} ms per call, allocated ${allocatedKiB.toFixed(1)} KiB per call`,
  );
  for (const [site, kib] of sites.slice(0, TOP_SITES))
    console.log(`  ${kib.toFixed(1).padStart(6)} KiB  ${site}`);
}
session.disconnect();
