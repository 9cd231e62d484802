// The era matrix: every kind of client (v2 pinned to 2026-07-28, v2 with the 2025 handshake, the v1 SDK) runs
// the acceptance flows against the built `switchyard`, over stdio and over HTTP. One HTTP server serves every
// client; over stdio each client starts its own process (one data directory for them, one after the other).
import path from 'node:path';
import { exampleRunConfig, materializeExampleRepos, type ExampleRepos } from '@switchyard/launch-runs';
import {
  startDigitransitMock,
  startTflMock,
  type DigitransitMock,
  type TflMock,
} from '@switchyard/upstream-mocks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_KINDS,
  connectEraClient,
  type ClientKind,
  type EraClient,
  type Target,
} from './era-clients.js';
import { departures, launchToReady, searchJourney, writeJourney } from './flows.js';
import { ALL_TOOLS, spawnHttpServer, tempDir, type SpawnedServer } from './helpers.js';

let tfl: TflMock;
let digitransit: DigitransitMock;
let repos: ExampleRepos;
const reposDir = tempDir('switchyard-eras-repos-');

/** The server's environment: both transit providers on the stand-ins, launches from the example repos. */
function serverEnv(dataDir: string): Record<string, string> {
  return {
    SWITCHYARD_DATA_DIR: dataDir,
    TFL_API_KEY: 'era-matrix-tfl-key',
    TFL_API_BASE_URL: tfl.url,
    DIGITRANSIT_SUBSCRIPTION_KEY: 'era-matrix-digitransit-key',
    DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
    DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
    LAUNCH_REPO_ROOTS: reposDir,
  };
}

beforeAll(async () => {
  tfl = await startTflMock();
  digitransit = await startDigitransitMock();
  repos = await materializeExampleRepos(path.join(reposDir, 'example'));
});
afterAll(async () => {
  await tfl?.close();
  await digitransit?.close();
});

/** The revision each client ends up with: the newest it knows that the server serves. */
const REVISION_OF: Record<ClientKind, string> = {
  modern: '2026-07-28',
  legacy: '2025-11-25',
  v1: '2025-11-25',
};

/** Whether background progress reaches this client as log messages (launch-runs README, "Progress"). */
function getsBackgroundLogs(transport: 'stdio' | 'http', kind: ClientKind): boolean {
  return transport === 'stdio' && kind !== 'modern';
}

describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
  const dataDir = tempDir('switchyard-eras-');
  let server: SpawnedServer | undefined;
  let target: Target;
  beforeAll(async () => {
    if (transport === 'http') {
      server = await spawnHttpServer(serverEnv(dataDir));
      target = { transport, url: server.url };
    } else {
      target = { transport, env: serverEnv(dataDir) };
    }
  });
  afterAll(async () => {
    if (server !== undefined) expect(await server.stop()).toBe(0);
  });

  describe.each(CLIENT_KINDS)('a %s client', (kind) => {
    let client: EraClient;
    beforeAll(async () => {
      client = await connectEraClient(kind, target);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('speaks its revision, lists every tool and gets contract-checked departures from the Digitransit stand-in', async () => {
      expect(client.protocolVersion).toBe(REVISION_OF[kind]);
      expect((await client.listToolNames()).sort()).toEqual([...ALL_TOOLS].sort());
      expect((await departures(client)).length).toBeGreaterThan(0);
    });

    it('records a journey session and finds it again by a word of its summary', async () => {
      const journeyId = await writeJourney(client, `${kind} client over ${transport}: tram 4 to Katajanokka`);
      expect(await searchJourney(client, journeyId, 'katajanokka')).toEqual([
        `${kind} client over ${transport}: tram 4 to Katajanokka`,
      ]);
    });

    it('drives a launch run to READY_FOR_PR, with progress notifications during the calls', async () => {
      const outcome = await launchToReady(client, exampleRunConfig(repos));
      expect(outcome.state).toBe('READY_FOR_PR');
      expect(outcome.fixes).toBeGreaterThanOrEqual(1);
      // launch_start_run answers once the run is recorded: one notification, saying how the rest arrives.
      const backgroundLogs = getsBackgroundLogs(transport, kind);
      expect(outcome.startProgress).toHaveLength(1);
      expect(outcome.startProgress[0]?.message).toContain(
        backgroundLogs ? 'progress follows as log messages' : 'poll launch_get_status',
      );
      // launch_fix_next works while its request is open: progress before its fix and after it, every time.
      expect(outcome.fixProgress).toHaveLength(2 * outcome.fixes);
      expect(outcome.fixProgress[0]).toMatchObject({ progress: 0, total: 2, message: 'W8 fix' });
      expect(outcome.fixProgress.at(-1)).toMatchObject({ progress: 2, total: 2 });
      // After the answer, only a 2025-era stdio connection still hears about the run (W1..W7 as log messages).
      const steps = client.logMessages.filter(
        (data) => (data as { runId?: string; event?: string }).runId === outcome.runId,
      ) as { event: string; worker: string }[];
      if (backgroundLogs) {
        expect(steps.map((step) => step.worker)).toEqual(['W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7']);
        expect(steps.every((step) => step.event === 'run_progress')).toBe(true);
      } else {
        expect(steps).toEqual([]);
      }
    });
  });
});
