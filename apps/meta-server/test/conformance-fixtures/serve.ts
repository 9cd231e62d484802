import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { runServer, type RunningServer } from '@switchyard/server-kit';
import { createLogger } from '@switchyard/server-kit/runtime';
import { conformanceFixturesDomain } from './domain.js';

/**
 * Serves the conformance fixtures over HTTP with server-kit's own host, as `switchyard --http` serves its
 * domains: stateless, both protocol eras, loopback only. `port` 0 picks a free one (read `url`).
 */
export function serveConformanceFixtures(port = 0): Promise<RunningServer> {
  return runServer([{ domain: conformanceFixturesDomain, config: undefined }], {
    name: 'switchyard-conformance-fixtures',
    version: conformanceFixturesDomain.version,
    title: conformanceFixturesDomain.title,
    instructions: conformanceFixturesDomain.instructions,
    transport: 'http',
    http: { port },
    dataDir: os.tmpdir(),
    env: {},
    logger: createLogger({ level: 'warn' }),
    strictOutput: true,
    handleSignals: false,
  });
}

// `node --import tsx test/conformance-fixtures/serve.ts [port]`: serve until interrupted, to run the suite by hand.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const running = await serveConformanceFixtures(Number(process.argv[2] ?? 0));
  process.stderr.write(`conformance fixtures at ${running.url}\n`);
  process.once('SIGINT', () => void running.close());
}
