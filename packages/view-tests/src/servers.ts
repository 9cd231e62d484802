import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { createLogger } from '@switchyard/server-kit/runtime';
import { connectInMemory, type InMemoryConnection } from '@switchyard/server-kit/testing';
import { journeyDomain, loadJourneyConfig } from '@switchyard/journey-continuity';
import { loadConfig, transitDomain } from '@switchyard/transit';
import {
  startDigitransitMock,
  startTflMock,
  type DigitransitMock,
  type TflMock,
} from '@switchyard/upstream-mocks';

export type CallToolResult = Awaited<ReturnType<Client['callTool']>>;

/** A server in process with a real SDK client, its log, and the views it serves. */
export interface ViewServer {
  client: Client;
  /** The server's log lines (debug: one `tool call` line per call that reached a tool). */
  logLines: string[];
  /** The view page `uri` as the server serves it (resources/read). */
  readView(uri: string): Promise<string>;
  /** The tools/call lines the server logged for `tool`. */
  callsLogged(tool: string): number;
  close(): Promise<void>;
}

/** The transit server, on the stand-in TfL and Digitransit. */
export interface TransitServer extends ViewServer {
  tfl: TflMock;
  digitransit: DigitransitMock;
}

/** A domain and its configuration, as `connectInMemory` mounts them. */
type Mount = Parameters<typeof connectInMemory>[0][number];

/** `mount` served on a fresh data directory; `cleanup` runs after the server closes. */
async function startViewServer(
  mount: Mount,
  cleanup: () => Promise<void> = async () => {},
): Promise<ViewServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'view-tests-'));
  const logLines: string[] = [];
  const connection: InMemoryConnection = await connectInMemory([mount], {
    dataDir,
    logger: createLogger({ level: 'debug', write: (line) => logLines.push(line) }),
  });
  return {
    client: connection.client,
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
      await cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startTransitServer(): Promise<TransitServer> {
  const tfl = await startTflMock();
  const digitransit = await startDigitransitMock();
  const config = loadConfig({
    TFL_API_KEY: 'view-test-tfl-key',
    DIGITRANSIT_SUBSCRIPTION_KEY: 'view-test-dt-key',
    TFL_API_BASE_URL: tfl.url,
    DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
    DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
  });
  const server = await startViewServer({ domain: transitDomain, config }, async () => {
    await tfl.close();
    await digitransit.close();
  });
  return { ...server, tfl, digitransit };
}

/** The journey server, its journeys in a SQLite file of the data directory. */
export function startJourneyServer(): Promise<ViewServer> {
  return startViewServer({ domain: journeyDomain, config: loadJourneyConfig({}) });
}
