import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startDigitransitMock, type DigitransitMock } from '@switchyard/upstream-mocks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSwitchyard, type RunningSwitchyard } from '../src/index.js';
import { createLogger } from '@switchyard/server-kit/runtime';
import { nextDepartures } from './readme-example/client.js';
import { PACKAGE_DIR, REPO_ROOT, tempDir } from './helpers.js';

const EXAMPLE_PATH = 'apps/meta-server/test/readme-example/client.ts';
const require = createRequire(import.meta.url);

/** The fenced block that follows `<!-- example: PATH -->` in a markdown file. */
function quotedBlock(markdown: string, file: string): string | undefined {
  const marker = `<!-- example: ${file} -->`;
  const start = markdown.indexOf(marker);
  if (start === -1) return undefined;
  const block = /```ts\n([\s\S]*?)```/.exec(markdown.slice(start + marker.length));
  return block?.[1];
}

describe("the README's client setups", () => {
  it('start the MCP Inspector over stdio with the transit keys: it passes its child no other environment', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').replace(/\s*\n\s*/g, ' ');
    const stdio = /`npx -y @modelcontextprotocol\/inspector ([^`]*switchyard\.js)`/.exec(readme)?.[1] ?? '';
    expect(stdio).toContain('-e TFL_API_KEY=');
    expect(stdio).toContain('-e DIGITRANSIT_SUBSCRIPTION_KEY=');
  });
});

describe('the README client example', () => {
  it('is quoted in the root README exactly as the file that is compiled here', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const example = fs.readFileSync(path.join(REPO_ROOT, EXAMPLE_PATH), 'utf8');
    expect(quotedBlock(readme, EXAMPLE_PATH)).toBe(example);
  });

  it('compiles with tsc under the repository settings (strict, NodeNext)', () => {
    const tsc = require.resolve('typescript/bin/tsc');
    const result = spawnSync(
      process.execPath,
      [tsc, '-p', path.join(PACKAGE_DIR, 'test/readme-example/tsconfig.json')],
      {
        encoding: 'utf8',
      },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  describe('run against the combined server', () => {
    let digitransit: DigitransitMock;
    let server: RunningSwitchyard;
    beforeAll(async () => {
      digitransit = await startDigitransitMock();
      server = await startSwitchyard({
        transport: 'http',
        port: 0,
        dataDir: tempDir(),
        handleSignals: false,
        announce: () => {},
        logger: createLogger({ level: 'error' }),
        env: {
          DIGITRANSIT_SUBSCRIPTION_KEY: 'readme-example-key',
          DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
          DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
        },
      });
    });
    afterAll(async () => {
      await server?.close();
      await digitransit?.close();
    });

    it('returns contract-checked departures', async () => {
      const departures = await nextDepartures(server.url ?? '', 'HSL:1040129');
      expect(departures.length).toBeGreaterThan(0);
      expect(departures.length).toBeLessThanOrEqual(5);
    });

    it('turns an error payload into a readable error', async () => {
      await expect(nextDepartures(server.url ?? '', 'not a stop id')).rejects.toThrow(/^validation-error: /);
    });
  });
});

describe('pnpm start', () => {
  it('builds the bundle and serves HTTP with the bin the README gives clients (the path it prints)', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const [build, serve] = (scripts.start ?? '').split(' && ');
    // The filter builds @switchyard/server and what it depends on: its build writes dist/bundle/.
    expect(build).toContain('turbo run build --filter=@switchyard/server...');
    const bin = /^node (\S+) --http$/.exec(serve ?? '')?.[1];
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`/path/to/node /path/to/switchyard/${bin}`);
    expect(fs.existsSync(path.join(REPO_ROOT, bin ?? ''))).toBe(true);
  });
});
