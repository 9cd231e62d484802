// `npm install @switchyard/server` alone, from its tarball, into an empty folder: what it weighs, and that what
// it installs is enough. The bin's bundle is the package's only copy of its code (scripts/bundle-bin.mjs
// --self-contained): npm installs only the externals (better-sqlite3, pg) and theirs. Slow (an npm install);
// part of `pnpm --filter @switchyard/server test:packaging`, after a build.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor, viewsNamedBy } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS, cleanEnv, DUMMY_KEYS, expectCompleteListing, tempDir } from '../helpers.js';
import { npmInstall, packAll } from './npm-project.js';

/** Issue #39's bounds for `npm install @switchyard/server` (it was 162 MB in 170 packages). */
const MAX_INSTALL_BYTES = 70 * 1000 * 1000;
const MAX_INSTALLED_PACKAGES = 100;
const SERVER = '@switchyard/server';

/** Every package folder under `nodeModules`, nested ones included, by its name. */
function installedPackages(nodeModules: string): { name: string; dir: string }[] {
  const found: { name: string; dir: string }[] = [];
  const visit = (folder: string, scope = '') => {
    if (!fs.existsSync(folder)) return;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const dir = path.join(folder, entry.name);
      if (scope === '' && entry.name.startsWith('@')) {
        visit(dir, entry.name);
        continue;
      }
      found.push({ name: scope === '' ? entry.name : `${scope}/${entry.name}`, dir });
      visit(path.join(dir, 'node_modules'));
    }
  };
  visit(nodeModules);
  return found;
}

/** The bytes of every file under `folder` (symbolic links count as themselves). */
function bytesUnder(folder: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** An OTLP/HTTP collector on loopback that keeps the paths it was sent spans on. */
async function startCollector(): Promise<{ endpoint: string; posts: string[]; close(): Promise<void> }> {
  const posts: string[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      posts.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    posts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function connectInstalledBin(project: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: path.join(project, 'node_modules', '.bin', 'switchyard'),
    cwd: project,
    env: cleanEnv({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: tempDir(), ...env }),
    stderr: 'pipe',
  });
  const client = clientFor('modern', 'install-weight-check');
  await client.connect(transport);
  return client;
}

describe('npm install @switchyard/server, alone', () => {
  const project = tempDir('switchyard-install-weight-');

  beforeAll(() => {
    // Every package is packed: the registry would have the versions an older server depended on.
    npmInstall(project, packAll(tempDir('switchyard-tarballs-')), [SERVER]);
  }, 15 * 60_000);

  afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

  it(`weighs at most ${MAX_INSTALL_BYTES / 1e6} MB in at most ${MAX_INSTALLED_PACKAGES} packages`, () => {
    const nodeModules = path.join(project, 'node_modules');
    const packages = installedPackages(nodeModules);
    const bytes = bytesUnder(nodeModules);
    console.info(
      `npm install @switchyard/server: ${(bytes / 1e6).toFixed(1)} MB, ${packages.length} packages`,
    );
    expect(bytes).toBeLessThanOrEqual(MAX_INSTALL_BYTES);
    expect(packages.length).toBeLessThanOrEqual(MAX_INSTALLED_PACKAGES);
  });

  it('installs one copy of its code: no other Switchyard package, no OpenTelemetry, no katex', () => {
    const names = installedPackages(path.join(project, 'node_modules')).map(({ name }) => name);
    expect(names.filter((name) => /^@switchyard\/|^@opentelemetry\/|^katex$/.test(name))).toEqual([SERVER]);
  });

  it('starts the installed bin, lists every tool, calls one that opens its database and reads a view', async () => {
    const client = await connectInstalledBin(project, {});
    try {
      const { tools } = await client.listTools();
      expectCompleteListing(tools, ALL_TOOLS);
      const journey = await client.callTool({ name: 'get_or_create_journey', arguments: {} });
      expect(journey.isError, JSON.stringify(journey.content)).not.toBe(true);
      // The views' pages are files beside the bundle: the installed bin finds each one a tool names.
      const viewUris = new Set(Object.values(viewsNamedBy(tools)));
      expect(viewUris.size).toBeGreaterThan(0);
      for (const uri of viewUris) {
        const [page] = (await client.readResource({ uri })).contents;
        expect(page?.mimeType, uri).toBe('text/html;profile=mcp-app');
        expect((page as { text?: string }).text, uri).toMatch(/^<!doctype html>/i);
      }
    } finally {
      await client.close();
    }
  }, 60_000);

  it('exports spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the bundle carries the exporter)', async () => {
    const collector = await startCollector();
    const client = await connectInstalledBin(project, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint });
    try {
      const runs = await client.callTool({ name: 'launch_list_runs', arguments: {} });
      expect(runs.isError, JSON.stringify(runs.content)).not.toBe(true);
      await expect
        .poll(() => collector.posts, { timeout: 30_000, interval: 100 })
        .toContain('POST /v1/traces');
    } finally {
      await client.close();
      await collector.close();
    }
  }, 60_000);
});
