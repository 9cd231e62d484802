import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectRecordingImports, recordPackageImports } from '../src/testing.js';
import { FIXTURES_DIR, hasMessage, PACKAGE_DIR, spawnFixture, tempDir } from './helpers.js';

/** What only the Streamable HTTP transport needs. */
const HTTP_ONLY = ['body-parser', 'cors'];
/** What only OAuth needs (an HTTP server without it never loads them). */
const OAUTH_ONLY = ['jose'];
/** What only a tool with a stated JSON Schema input needs (`jsonSchemaInput`). */
const STATED_SCHEMA_ONLY = ['ajv'];

function scratchDir(): string {
  const dir = tempDir();
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('startup loads only what the transport needs', { timeout: 60_000 }, () => {
  it.each(['modern', 'legacy'] as const)(
    'stdio (%s era): lists and calls tools without loading the HTTP stack',
    async (era) => {
      const dir = scratchDir();
      const { client, imports } = await connectRecordingImports({
        bin: path.join(FIXTURES_DIR, 'serve.ts'),
        cwd: PACKAGE_DIR,
        logFile: path.join(dir, 'imports.log'),
        env: { ...getDefaultEnvironment(), FIXTURE_TRANSPORT: 'stdio', SWITCHYARD_DATA_DIR: dir },
        era,
      });
      await client.listTools();
      await client.callTool({ name: 'echo_text', arguments: { text: 'hi' } });
      await client.close();
      const loaded = imports.packages();
      expect(loaded).toContain('@modelcontextprotocol/server');
      for (const name of [...HTTP_ONLY, ...STATED_SCHEMA_ONLY]) expect(loaded).not.toContain(name);
      // Node's fetch implementation (its bundled undici) costs 30-40 ms to load: a stdio start never needs it.
      expect(imports.nodeDepsAtExit()).not.toContain('undici/undici');
    },
  );

  it('http: loads them when it serves HTTP, and the JWT library only with OAuth', async () => {
    const dir = scratchDir();
    const imports = recordPackageImports(path.join(dir, 'imports.log'));
    const fixture = spawnFixture('serve.ts', {
      FIXTURE_TRANSPORT: 'http',
      SWITCHYARD_DATA_DIR: dir,
      NODE_OPTIONS: imports.execArgv.join(' '),
    });
    try {
      await fixture.waitForLine(hasMessage('listening'));
      expect(imports.packages()).toEqual(expect.arrayContaining(HTTP_ONLY));
      for (const name of OAUTH_ONLY) expect(imports.packages()).not.toContain(name);
    } finally {
      fixture.child.kill('SIGTERM');
      await fixture.exited;
    }
    // The HTTP stack does load it (the SDK's web Request and Response), as the recording shows.
    expect(imports.nodeDepsAtExit()).toContain('undici/undici');
  });
});

describe('importing the package loads no MCP SDK', () => {
  it.each(['@switchyard/server-kit', '@switchyard/server-kit/runtime'])(
    '%s (the built package, as a domain imports it)',
    (entry) => {
      for (const file of ['dist/index.js', 'dist/runtime/index.js']) {
        if (!fs.existsSync(path.join(PACKAGE_DIR, file))) {
          throw new Error(
            `${file} is missing: build first (pnpm turbo run build --filter=@switchyard/server-kit...)`,
          );
        }
      }
      const imports = recordPackageImports(path.join(scratchDir(), 'imports.log'));
      // The package imports itself by name (Node resolves a package's own exports from inside it).
      const run = spawnSync(
        process.execPath,
        [...imports.execArgv, '--input-type=module', '-e', `await import(${JSON.stringify(entry)});`],
        { cwd: PACKAGE_DIR, encoding: 'utf8', env: getDefaultEnvironment(), timeout: 30_000 },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const loaded = imports.packages();
      expect(loaded).toContain('@switchyard/server-kit');
      expect(loaded.filter((name) => name.startsWith('@modelcontextprotocol/'))).toEqual([]);
    },
  );
});
