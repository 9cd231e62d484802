// pnpm demo: the whole of Switchyard, offline. Starts the TfL and Digitransit stand-ins from
// @switchyard/upstream-mocks, spawns the built `switchyard` bin over stdio pointed at them, and drives a real
// MCP client through five short stories.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import { draftingRun } from './chapters/drafting.js';
import { helsinkiTrip } from './chapters/helsinki.js';
import { journeyHistory } from './chapters/journey.js';
import { launchRun } from './chapters/launch.js';
import { londonJourney } from './chapters/london.js';
import { ToolError } from './call.js';
import { line } from './print.js';

const BIN = fileURLToPath(new URL('../bin/switchyard.js', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../dist/bundle/bin.js', import.meta.url));
const DEMO_KEYS = { TFL_API_KEY: 'demo-tfl-key', DIGITRANSIT_SUBSCRIPTION_KEY: 'demo-digitransit-key' };

async function main(): Promise<void> {
  if (!fs.existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run the build first (pnpm build)`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-demo-'));
  const dataDir = path.join(workDir, 'data');
  const tfl = await startTflMock();
  const digitransit = await startDigitransitMock();
  let serverLog = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: {
      ...getDefaultEnvironment(),
      ...DEMO_KEYS,
      TFL_API_BASE_URL: tfl.url,
      DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
      DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_LOG_LEVEL: 'warn',
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (serverLog += chunk.toString('utf8')));
  // The 2026-07-28 revision: no handshake, every request carries its own protocol envelope.
  const client = new Client(
    { name: 'switchyard-demo', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );

  console.log('Switchyard demo: everything runs on this machine, against stand-ins for TfL and Digitransit.');
  console.log(`Mocks: TfL ${tfl.url}, Digitransit ${digitransit.url}; data in ${workDir}`);
  try {
    await client.connect(transport);
    const server = client.getServerVersion();
    const { tools } = await client.listTools();
    console.log(
      `Connected to ${server?.name} ${server?.version} over stdio (MCP ${client.getNegotiatedProtocolVersion()}): ` +
        `${tools.length} tools.`,
    );
    for (const text of serverLog.split('\n').filter((entry) => /^\s+(mounted|skipped) /.test(entry))) {
      line(text.trim());
    }

    await londonJourney(client, tfl);
    await helsinkiTrip(client);
    await journeyHistory(client);
    // Inside the data directory: the only place the launch domain takes local repositories from by default.
    await launchRun(client, path.join(dataDir, 'launch-examples'));
    await draftingRun(client, path.join(dataDir, 'drafting-examples'));
    console.log(
      '\nThat was every domain of Switchyard through one MCP server. Next: README.md, "Connect a client".',
    );
  } finally {
    await client.close().catch(() => {});
    await tfl.close();
    await digitransit.close();
  }
  fs.rmSync(workDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  if (error instanceof ToolError) {
    console.error(`\nThe demo stopped: ${error.tool} answered with an error:`);
    console.error(JSON.stringify(error.payload, null, 2));
  } else {
    console.error(
      `\nThe demo stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
  process.exitCode = 1;
});
