import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { createLogger } from '@switchyard/server-kit/runtime';
import { connectInMemory, type InMemoryConnection } from '@switchyard/server-kit/testing';
import { journeyDomain, loadJourneyConfig } from '@switchyard/journey-continuity';
import {
  launchRunsDomain,
  loadLaunchRunsConfig,
  materializeExampleRepos,
  type ExampleRepos,
} from '@switchyard/launch-runs';
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

/** Which tools the server lists (read-only, allow and deny lists), as `connectInMemory` takes them. */
type Listing = Pick<NonNullable<Parameters<typeof connectInMemory>[1]>, 'readOnly'>;

/** `mount` served on a fresh data directory; `cleanup` runs after the server closes. */
async function startViewServer(
  mount: Mount,
  cleanup: () => Promise<void> = async () => {},
  listing: Listing = {},
): Promise<ViewServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'view-tests-'));
  const logLines: string[] = [];
  const connection: InMemoryConnection = await connectInMemory([mount], {
    ...listing,
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

/** The launch-runs server with its real pipeline, and the example source and site repositories it may read. */
export interface LaunchServer extends ViewServer {
  repos: ExampleRepos;
}

/** launch-runs on the example repositories (local git, offline), all tools listed or, `readOnly`, the reads. */
export async function startLaunchServer(listing: Listing = {}): Promise<LaunchServer> {
  const reposDir = fs.mkdtempSync(path.join(os.tmpdir(), 'view-tests-repos-'));
  const repos = await materializeExampleRepos(reposDir);
  const config = loadLaunchRunsConfig({ LAUNCH_REPO_ROOTS: reposDir });
  const server = await startViewServer(
    { domain: launchRunsDomain, config },
    async () => fs.rmSync(reposDir, { recursive: true, force: true }),
    listing,
  );
  return { ...server, repos };
}
