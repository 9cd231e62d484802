import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { createLogger } from '@switchyard/server-kit/runtime';
import { connectInMemory, type InMemoryConnection } from '@switchyard/server-kit/testing';
import { loadConfig, transitDomain } from '@switchyard/transit';
import {
  startDigitransitMock,
  startTflMock,
  type DigitransitMock,
  type TflMock,
} from '@switchyard/upstream-mocks';

export type CallToolResult = Awaited<ReturnType<Client['callTool']>>;

/** The transit server in process, on the stand-in TfL and Digitransit, with a real SDK client. */
export interface TransitServer {
  client: Client;
  tfl: TflMock;
  digitransit: DigitransitMock;
  /** The server's log lines (debug: one `tool call` line per call that reached a tool). */
  logLines: string[];
  /** The view page `uri` as the server serves it (resources/read). */
  readView(uri: string): Promise<string>;
  /** The tools/call lines the server logged for `tool`. */
  callsLogged(tool: string): number;
  close(): Promise<void>;
}

export async function startTransitServer(): Promise<TransitServer> {
  const tfl = await startTflMock();
  const digitransit = await startDigitransitMock();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'view-tests-'));
  const logLines: string[] = [];
  const config = loadConfig({
    TFL_API_KEY: 'view-test-tfl-key',
    DIGITRANSIT_SUBSCRIPTION_KEY: 'view-test-dt-key',
    TFL_API_BASE_URL: tfl.url,
    DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
    DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
  });
  const connection: InMemoryConnection = await connectInMemory([{ domain: transitDomain, config }], {
    dataDir,
    logger: createLogger({ level: 'debug', write: (line) => logLines.push(line) }),
  });
  return {
    client: connection.client,
    tfl,
    digitransit,
    logLines,
    async readView(uri) {
      const { contents } = await connection.client.readResource({ uri });
      const [page] = contents;
      if (page === undefined || !('text' in page)) throw new Error(`${uri} has no text`);
      return page.text;
    },
    callsLogged: (tool) =>
      logLines.filter((line) => line.includes('"tool call"') && line.includes(`"tool":"${tool}"`)).length,
    async close() {
      await connection.close();
      await tfl.close();
      await digitransit.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
