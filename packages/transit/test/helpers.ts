import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { createLogger } from '@switchyard/server-kit/runtime';
import { callTool, connectInMemory, type ProtocolEra, type ToolAnswer } from '@switchyard/server-kit/testing';
import {
  startDigitransitMock,
  startTflMock,
  type DigitransitMock,
  type TflMock,
} from '@switchyard/upstream-mocks';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { loadConfig, transitDomain, type TflServices, type TransitState } from '../src/index.js';

export const TEST_TFL_KEY = 'test-tfl-key-1234';
export const TEST_DT_KEY = 'test-dt-key-5678';

export interface Harness {
  client: Client;
  tfl: TflMock;
  digitransit: DigitransitMock;
  dataDir: string;
  /** Every log line written by the domain and the server. */
  logLines: string[];
  /** The opened domain as the server holds it (readiness, the saved-place store). */
  readonly state: TransitState;
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  /** A second connection to a freshly opened domain on the same data dir (a restart). */
  restart(): Promise<Harness>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  /** The protocol era the client speaks (default modern). */
  era?: ProtocolEra;
  tflKey?: string;
  digitransitKey?: string;
  /** The server's answer limit in bytes (default 1 MiB). */
  maxAnswerBytes?: number;
  /** Reuse running mocks and a data dir (restart). */
  reuse?: { tfl: TflMock; digitransit: DigitransitMock; dataDir: string; logLines: string[] };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const tfl = options.reuse?.tfl ?? (await startTflMock());
  const digitransit = options.reuse?.digitransit ?? (await startDigitransitMock());
  const dataDir = options.reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'transit-test-'));
  const logLines = options.reuse?.logLines ?? [];
  const logger = createLogger({ level: 'debug', write: (line) => logLines.push(line) });
  const config = loadConfig({
    TFL_API_KEY: options.tflKey ?? TEST_TFL_KEY,
    DIGITRANSIT_SUBSCRIPTION_KEY: options.digitransitKey ?? TEST_DT_KEY,
    TFL_API_BASE_URL: tfl.url,
    DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
    DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
    // Tests call faster than a person would: the limiters get their own tests with low limits.
    PLAN_JOURNEY_TPS: '1000',
    DIGITRANSIT_CALLS_PER_SECOND: '1000',
    ...options.env,
  });
  const connection = await connectInMemory([{ domain: transitDomain, config }], {
    dataDir,
    logger,
    ...(options.era === undefined ? {} : { era: options.era }),
    maxAnswerBytes: options.maxAnswerBytes,
  });
  let connectionClosed: Promise<void> | undefined;
  const closeConnection = (): Promise<void> => (connectionClosed ??= connection.close());
  let closed: Promise<void> | undefined;
  const harness: Harness = {
    client: connection.client,
    tfl,
    digitransit,
    dataDir,
    logLines,
    state: connection.domains.get(transitDomain.name) as TransitState,
    call: (name, args) => callTool(connection.client, name, args),
    async restart() {
      await closeConnection();
      return startHarness({ ...options, reuse: { tfl, digitransit, dataDir, logLines } });
    },
    close() {
      closed ??= (async () => {
        await closeConnection();
        if (options.reuse === undefined) {
          await tfl.close();
          await digitransit.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      })();
      return closed;
    },
  };
  return harness;
}

/**
 * One harness for a test file: started before its tests, closed after them, the mocks reset (default
 * scenarios, no recorded requests) before each test. The returned object forwards to it.
 */
export function useHarness(options: HarnessOptions | (() => Promise<HarnessOptions>) = {}): Harness {
  let current: Harness | undefined;
  const started = (): Harness => {
    if (current === undefined) throw new Error('the harness is used before beforeAll started it');
    return current;
  };
  beforeAll(async () => {
    current = await startHarness(typeof options === 'function' ? await options() : options);
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    current?.tfl.reset();
    current?.digitransit.reset();
  });
  return {
    get client() {
      return started().client;
    },
    get tfl() {
      return started().tfl;
    },
    get digitransit() {
      return started().digitransit;
    },
    get dataDir() {
      return started().dataDir;
    },
    get logLines() {
      return started().logLines;
    },
    get state() {
      return started().state;
    },
    call: (name, args) => started().call(name, args),
    restart: () => started().restart(),
    close: () => started().close(),
  };
}

/** A failure a handler does not expect, its message naming internals that must not reach the client. */
export function unexpectedFailure(): never {
  throw new TypeError('cannot read properties of undefined (secret internals)');
}

/** A TfL-only server over the given services (the internal-failure tests); close the connection after. */
export function connectOverTfl(tfl: TflServices) {
  const state: TransitState = {
    savedPlaces: () => Promise.reject(new Error('not used')),
    hasSavedPlaces: async () => false,
    tfl,
    ready: async () => true,
    close: async () => {},
  };
  const config = loadConfig({ TRANSIT_PROVIDERS: 'tfl', TFL_API_KEY: 'internal-test-key-1234' });
  return connectInMemory([{ domain: { ...transitDomain, open: () => state }, config }], {
    logger: createLogger({ level: 'error', write: () => {} }),
  });
}
