import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NORMAL_CALLS, TRANSIT_TABLES } from '../src/faults.js';
import { callTool } from '../src/harness/mcp-client.js';
import { startWorld, type World } from '../src/harness/world.js';
import { classify, type Outcome } from '../src/outcome.js';
import { toolContract } from '../src/tools.js';

/**
 * Issue #11, rows 5 and 12, through the combined `switchyard` bin over Streamable HTTP with a real SDK client:
 * a 200 MiB upstream body (TfL, Digitransit routing, Digitransit geocoding) is cut off at the default limit
 * (8 MiB) with the contract's upstream error, the server's memory stays bounded while the mock streams it,
 * and the next call succeeds; a Content-Length above the limit is refused before reading; and a call that
 * timed out says UPSTREAM_TIMEOUT even when the circuit breaker opened during its own retries.
 */
const TRANSIT_TOOLS = [
  'planJourney',
  'get_london_arrivals',
  'get_line_status',
  'find_london_stops',
  'get_departures',
  'plan_trip',
  'find_stops',
] as const;
/** The tools that ask TfL; the others ask Digitransit. */
const TFL_TOOLS: ReadonlySet<string> = new Set([
  'planJourney',
  'get_london_arrivals',
  'get_line_status',
  'find_london_stops',
]);
type TransitTool = (typeof TRANSIT_TOOLS)[number];

/**
 * How much the server's resident memory may grow while an upstream sends 200 MiB (it grew to 955 MiB before).
 * Growth, not an absolute ceiling: the combined server already holds about 200-300 MiB once a path's
 * libraries are loaded, so each test warms its path with a normal call first.
 */
const RSS_GROWTH_CEILING_KIB = 100 * 1024;
/** The answer for a body past the default limit (8 MiB). */
const tooLarge = (upstream: string) =>
  `${upstream} sent a response too large: its body passed the limit of 8388608 bytes (8 MiB)`;

let world: World;

beforeAll(async () => {
  // The TfL answer cache off: the warm-up call before each oversized answer must not be answered from it.
  world = await startWorld({
    name: 'upstream-bounds',
    upstreamTimeoutMs: 1500,
    extraEnv: { TFL_CACHE_MAX_ENTRIES: '0' },
  });
});

afterAll(async () => {
  world.scanLogs();
  await world?.close();
});

function mockOf(tool: string) {
  return TFL_TOOLS.has(tool) ? world.upstreams.tfl : world.upstreams.digitransit;
}

/**
 * Calls a tool while sampling the server's RSS every 20 ms: the outcome as a contract-following client reads
 * it, and how far the RSS rose above what it was before the call.
 */
async function callSampled(
  tool: string,
  args: Record<string, unknown>,
): Promise<{ outcome: Outcome; rssGrowthKib: number }> {
  const beforeKib = world.server.rssKib() ?? 0;
  let peakRssKib = beforeKib;
  const sample = () => (peakRssKib = Math.max(peakRssKib, world.server.rssKib() ?? 0));
  const sampler = setInterval(sample, 20);
  try {
    const answer = await callTool(world.client, tool, args, { timeoutMs: 60_000 });
    sample();
    world.scanner.scan(`${tool} answer`, answer);
    return { outcome: classify(toolContract(tool), answer), rssGrowthKib: peakRssKib - beforeKib };
  } finally {
    clearInterval(sampler);
  }
}

/** The contract's code for an upstream error, and the message (exactly, or matching). */
function expectUpstreamError(tool: string, outcome: Outcome, message: string | RegExp): void {
  expect(outcome.kind, JSON.stringify(outcome)).toBe('error');
  if (outcome.kind !== 'error') return;
  expect(outcome.code).toBe(TRANSIT_TABLES[tool]!.byKind['upstream-error']);
  if (typeof message === 'string') expect(outcome.message).toBe(message);
  else expect(outcome.message).toMatch(message);
}

async function expectSuccess(tool: TransitTool, args: Record<string, unknown> = NORMAL_CALLS[tool]!) {
  world.upstreams.reset();
  const { outcome } = await callSampled(tool, args);
  expect(outcome.kind, JSON.stringify(outcome)).toBe('success');
  world.assertHealthy();
}

describe.each(TRANSIT_TOOLS)('%s against a 200 MiB upstream body', (tool) => {
  const upstream = TFL_TOOLS.has(tool) ? 'TfL' : 'Digitransit';

  it('answers the upstream error "response too large" with the limit, in bounded memory, then serves again', async () => {
    await expectSuccess(tool);
    world.upstreams.reset();
    mockOf(tool).scenario('oversized-body');
    const { outcome, rssGrowthKib } = await callSampled(tool, NORMAL_CALLS[tool]!);
    const attempts = mockOf(tool).requests.length;
    expectUpstreamError(tool, outcome, tooLarge(upstream));
    expect(attempts).toBe(1);
    expect(rssGrowthKib).toBeLessThan(RSS_GROWTH_CEILING_KIB);
    await expectSuccess(tool);
  });

  it('refuses a Content-Length above the limit before reading the body', async () => {
    world.upstreams.reset();
    mockOf(tool).scenario('oversized-content-length');
    const { outcome } = await callSampled(tool, NORMAL_CALLS[tool]!);
    expectUpstreamError(tool, outcome, /sent a response too large: it announced \d{9} bytes, over the limit/);
    await expectSuccess(tool);
  });
});

describe('Digitransit geocoding against a 200 MiB body', () => {
  it('plan_trip with a label to geocode answers upstream-error "response too large" in bounded memory', async () => {
    const fromLabel = { ...NORMAL_CALLS.plan_trip, origin: { type: 'label', value: 'Kamppi' } };
    await expectSuccess('plan_trip', fromLabel);
    world.upstreams.digitransit.geocodingScenario('oversized-body');
    const { outcome, rssGrowthKib } = await callSampled('plan_trip', fromLabel);
    expectUpstreamError('plan_trip', outcome, tooLarge('Digitransit geocoding'));
    expect(rssGrowthKib).toBeLessThan(RSS_GROWTH_CEILING_KIB);
    await expectSuccess('plan_trip', fromLabel);
  });
});

describe('the circuit breaker never replaces a call’s own failure', () => {
  it('500, 500, 500 then a hang: the hanging call answers UPSTREAM_TIMEOUT; only the next says circuit open', async () => {
    const tfl = world.upstreams.tfl;
    world.upstreams.reset();
    tfl.scenario('hang');
    tfl.scenario('server-error', { times: 3 });
    const call = () => callSampled('planJourney', NORMAL_CALLS.planJourney!).then((r) => r.outcome);

    expectUpstreamError('planJourney', await call(), /^TfL answered 500/);
    expect(tfl.requests).toHaveLength(3);

    // Two timeouts are the breaker's fourth and fifth failures: it opens before this call's third attempt.
    const timedOut = await call();
    expect(tfl.requests).toHaveLength(5);
    expect(timedOut.kind === 'error' && timedOut.code, JSON.stringify(timedOut)).toBe('UPSTREAM_TIMEOUT');

    const refused = await call();
    expect(tfl.requests).toHaveLength(5);
    expectUpstreamError('planJourney', refused, /^TfL is temporarily unavailable \(circuit open\)/);
    world.assertHealthy();
  });
});
