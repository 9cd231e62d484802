#!/usr/bin/env node
// Starts both mocks for the offline demo and prints their URLs; Ctrl-C stops them.
import { parseArgs } from 'node:util';
import { DIGITRANSIT_SCENARIOS } from './digitransit/scenarios.js';
import type { DigitransitScenarioName } from './digitransit/scenarios.js';
import { startDigitransitMock } from './digitransit/server.js';
import { TFL_SCENARIOS } from './tfl/scenarios.js';
import type { TflScenarioName } from './tfl/scenarios.js';
import { startTflMock } from './tfl/server.js';

const USAGE = `Usage: upstream-mocks [options]

  --tfl-port <n>                port for the TfL mock (default: any free port)
  --digitransit-port <n>        port for the Digitransit mock (default: any free port)
  --tfl-scenario <name>         standing TfL scenario (default: default)
  --digitransit-scenario <name> standing Digitransit routing scenario (default: default)
  --json                        print one JSON line with the URLs instead of text
  --help                        show this help
`;

function port(value: string | undefined, flag: string): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${flag} must be a port number, got "${value}"`);
  return n;
}

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((name) => name === value);
  if (!found) throw new Error(`${flag} must be one of: ${allowed.join(', ')}`);
  return found;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    allowPositionals: true,
    options: {
      'tfl-port': { type: 'string' },
      'digitransit-port': { type: 'string' },
      'tfl-scenario': { type: 'string' },
      'digitransit-scenario': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const tflScenario = oneOf<TflScenarioName>(values['tfl-scenario'], TFL_SCENARIOS, '--tfl-scenario');
  const dtScenario = oneOf<DigitransitScenarioName>(
    values['digitransit-scenario'],
    DIGITRANSIT_SCENARIOS,
    '--digitransit-scenario',
  );
  const tfl = await startTflMock({ port: port(values['tfl-port'], '--tfl-port') });
  const digitransit = await startDigitransitMock({
    port: port(values['digitransit-port'], '--digitransit-port'),
  });
  if (tflScenario) tfl.scenario(tflScenario);
  if (dtScenario) digitransit.scenario(dtScenario);

  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({
        tfl: tfl.url,
        digitransit: digitransit.url,
        routing: digitransit.routingUrl,
        geocoding: digitransit.geocodingUrl,
      })}\n`,
    );
  } else {
    process.stdout.write(
      [
        `TfL mock:         ${tfl.url}  (GET /Journey/JourneyResults/{from}/to/{to}?app_key=<any>)`,
        `Digitransit mock: ${digitransit.url}`,
        `  routing:        ${digitransit.routingUrl}  (POST, header digitransit-subscription-key: <any>)`,
        `  geocoding:      ${digitransit.geocodingUrl}/search?text=...`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  }

  const stop = (): void => {
    void Promise.all([tfl.close(), digitransit.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
