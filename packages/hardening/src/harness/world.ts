import type { Client } from '@modelcontextprotocol/client';
import type { ProtocolEra } from '@switchyard/server-kit/testing';
import { defaultEra } from '../profile.js';
import { SecretScanner, SENTINELS } from '../sentinels.js';
import { connectHttp } from './mcp-client.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from './switchyard.js';
import { removeTempDir, tempDir } from './temp.js';
import { serverEnv, startUpstreams, type Upstreams } from './upstreams.js';

export interface WorldOptions {
  /** The era of `client` and of `connect()` without one; default HARDENING_ERA, else modern. */
  era?: ProtocolEra;
  upstreamTimeoutMs?: number;
  extraEnv?: Record<string, string>;
  name: string;
}

/**
 * One combined server (the `switchyard` bin, spawned, over Streamable HTTP, with every sentinel secret
 * configured) wired to loopback TfL, Digitransit and GitHub stand-ins, a connected client, and a scanner that
 * every answer and, at the end, every log line of the server goes through.
 */
export interface World {
  upstreams: Upstreams;
  server: SpawnedSwitchyard;
  client: Client;
  dataDir: string;
  scanner: SecretScanner;
  env: Record<string, string>;
  /** The era `client` speaks. */
  era: ProtocolEra;
  /** Another client on the same server (its own connection), in `era` or the world's. */
  connect(era?: ProtocolEra): Promise<Client>;
  /** Stops and starts the server on the same data directory (after a kill, too). */
  restart(): Promise<void>;
  /** Fails when the server died, or reported an unhandled rejection, uncaught exception or warning. */
  assertHealthy(): void;
  /** Every stderr line of every server process this world started, scanned for secrets. */
  scanLogs(): void;
  close(): Promise<void>;
}

export async function startWorld(options: WorldOptions): Promise<World> {
  const upstreams = await startUpstreams();
  const dataDir = tempDir(options.name);
  const env = serverEnv(upstreams, {
    dataDir,
    upstreamTimeoutMs: options.upstreamTimeoutMs,
    extra: options.extraEnv,
  });
  const era = options.era ?? defaultEra();
  const scanner = new SecretScanner();
  const servers: SpawnedSwitchyard[] = [];
  const clients: Client[] = [];
  const start = async () => {
    const server = await spawnSwitchyard({ env });
    servers.push(server);
    return server;
  };
  const connect = async (clientEra: ProtocolEra = era) => {
    const client = await connectHttp(world.server.url, { token: SENTINELS.switchyardToken, era: clientEra });
    clients.push(client);
    return client;
  };
  const world: World = {
    upstreams,
    server: await start(),
    client: undefined as unknown as Client,
    dataDir,
    scanner,
    env,
    era,
    connect,
    async restart() {
      await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
      if (world.server.alive()) await world.server.stop();
      world.server = await start();
      world.client = await connect();
    },
    assertHealthy() {
      if (!world.server.alive())
        throw new Error(`the server died:\n${world.server.lines().slice(-30).join('\n')}`);
      const defects = world.server.defects();
      if (defects.length > 0) throw new Error(`the server reported:\n${defects.join('\n')}`);
    },
    scanLogs() {
      servers.forEach((server, index) =>
        server.lines().forEach((line, n) => scanner.scan(`server ${index} stderr line ${n + 1}`, line)),
      );
    },
    async close() {
      await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
      await Promise.all(servers.map((s) => s.stop()));
      await upstreams.close();
      removeTempDir(dataDir);
    },
  };
  world.client = await connect();
  return world;
}
