// Profile: the built switchyard-transit bin under `node --cpu-prof`, called PROFILE_CALLS times (default 10,000,
// after 200 warm-up calls left out of the sums) with one tool over stdio (or HTTP) against the loopback
// stand-ins. Writes the .cpuprofile (open it in Chrome DevTools or speedscope for the flame graph) and prints
// where the server's CPU went: self time by area (our code, the MCP SDK, zod, undici/fetch, JSON, GC) and the
// hottest functions. Needs a build.
// `bare` (`bare-http`) profiles the bare SDK tool of the same name (bare-server.ts) over stdio (HTTP) instead.
// PROFILE_BIN profiles another build's bin; PROFILE_CALLERS=16 keeps that many calls in flight at once;
// `plan_trip/names` is plan_trip between two names.
//   pnpm --filter @switchyard/transit profile [tool] [calls] [stdio|http|bare|bare-http]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import { profileCalls } from './cpu-areas.js';
import { CASE_ARGS, serverEnv, toolOfCase } from './upstream-requests.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** PROFILE_BIN: another build's bin (a before/after). */
const BIN = process.env.PROFILE_BIN ?? path.join(here, '..', 'bin', 'switchyard-transit.js');
const tool = process.argv[2] ?? 'get_departures';
const calls = Number(process.argv[3] ?? process.env.PROFILE_CALLS ?? 10_000);
const bare = process.argv[4]?.startsWith('bare') === true;
const transport = process.argv[4]?.endsWith('http') === true ? 'http' : 'stdio';
const callers = Number(process.env.PROFILE_CALLERS ?? 1);
if (CASE_ARGS[tool] === undefined)
  throw new Error(`unknown tool ${tool}; one of ${Object.keys(CASE_ARGS).join(', ')}`);

const tfl = await startTflMock();
const digitransit = await startDigitransitMock();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-profile-'));
try {
  const summary = await profileCalls({
    server: {
      label: 'profile',
      transport,
      args: bare ? ['--import', 'tsx', path.join(here, 'bare-server.ts')] : [BIN],
      env: serverEnv(
        {
          tflUrl: tfl.url,
          tflKey: 'profile-tfl-key-0001',
          routingUrl: digitransit.routingUrl,
          geocodingUrl: digitransit.geocodingUrl,
          digitransitKey: 'profile-dt-key-0002',
        },
        dataDir,
      ),
      era: 'modern',
    },
    warmup: Math.min(200, calls),
    calls,
    callers,
    call: async (client) => {
      const name = toolOfCase(tool, bare);
      const result = await client.callTool({ name, arguments: bare ? {} : CASE_ARGS[tool] });
      if (result.isError === true)
        throw new Error(`${tool} failed: ${JSON.stringify(result.structuredContent)}`);
    },
  });
  console.log(
    `${tool} over ${transport}${bare ? ', the bare SDK tool' : ''}, ${callers} in flight: ${calls} calls; ` +
      `sampled busy time ` +
      `${(summary.busyMs * calls).toFixed(0)} ms, ${summary.busyMs.toFixed(3)} ms per call`,
  );
  for (const [area, ms] of summary.areas) {
    console.log(
      `  ${area.padEnd(16)} ${ms.toFixed(3)} ms/call  ${((100 * ms) / summary.busyMs).toFixed(1)}%`,
    );
  }
  console.log('hottest functions (self time per call):');
  for (const [name, ms] of summary.functions.slice(0, 30)) console.log(`  ${ms.toFixed(4)} ms  ${name}`);
  console.log(`profile: ${summary.file}`);
} finally {
  await tfl.close();
  await digitransit.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
