// Slow (a few minutes: npm installs every dependency and compiles better-sqlite3), so it runs on its own:
// `pnpm --filter @switchyard/server test:packaging`, after a build. See the package README.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor } from '@switchyard/server-kit/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_TOOLS,
  cleanEnv,
  DUMMY_KEYS,
  expectCompleteListing,
  JOURNEY_TOOLS,
  LAUNCH_TOOLS,
  tempDir,
  TRANSIT_TOOLS,
} from '../helpers.js';
import { SERVER_PACKAGES, type PackageJson } from '../published-packages.js';
import { npmInstall, packAll, run } from './npm-project.js';

const require = createRequire(import.meta.url);

const TOOLS_OF_BIN: Record<string, string[]> = {
  switchyard: ALL_TOOLS,
  'switchyard-transit': TRANSIT_TOOLS,
  'switchyard-journey': JOURNEY_TOOLS,
  'switchyard-launch': LAUNCH_TOOLS,
};

/**
 * A call that opens the bin's database: its migrations are files of the installed package, found from the
 * bundle through the package's own location (scripts/bundle-bin.mjs).
 */
const STORE_CALL_OF_BIN: Record<string, { name: string; arguments: Record<string, unknown> }> = {
  switchyard: { name: 'get_or_create_journey', arguments: {} },
  'switchyard-transit': {
    name: 'save_user_variable',
    arguments: { key: 'home', value: { type: 'location', lat: 60.1699, lon: 24.9384 } },
  },
  'switchyard-journey': { name: 'get_or_create_journey', arguments: {} },
  'switchyard-launch': { name: 'launch_list_runs', arguments: {} },
};

describe('what a user gets from the registry', () => {
  const tarballDir = tempDir('switchyard-tarballs-');
  const project = tempDir('switchyard-install-');
  const tarballs = new Map<string, string>();

  beforeAll(() => {
    for (const [name, file] of packAll(tarballDir)) tarballs.set(name, file);
    npmInstall(project, tarballs);
  }, 15 * 60_000);

  it('packs each package with its manifest rewritten for the registry, and no development fields', () => {
    for (const [name, file] of tarballs) {
      const manifest = JSON.parse(
        execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }),
      ) as PackageJson;
      expect(manifest.name).toBe(name);
      // Dependencies and peers alike name published versions.
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
      // .pnpmfile.cjs drops them: a published manifest never names the private workspace packages.
      expect(Object.keys(manifest), name).not.toEqual(expect.arrayContaining(['devDependencies']));
      expect(Object.keys(manifest), name).not.toEqual(expect.arrayContaining(['scripts']));
      expect(JSON.stringify(manifest)).not.toMatch(/upstream-mocks|@switchyard\/hardening/);
      const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n');
      expect(listing, name).toEqual(
        expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/dist/index.d.ts']),
      );
    }
  });

  it('ships source maps whose every source is a file in the same tarball', () => {
    for (const [name, file] of tarballs) {
      const listing = new Set(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n'));
      const maps = [...listing].filter((entry) => entry.endsWith('.map'));
      expect(maps.length, name).toBeGreaterThan(0);
      // Unpacked once: a tar read per map took minutes on a loaded machine.
      const unpacked = tempDir('switchyard-unpacked-');
      execFileSync('tar', ['-xzf', file, '-C', unpacked]);
      for (const map of maps) {
        const { sources } = JSON.parse(fs.readFileSync(path.join(unpacked, map), 'utf8')) as {
          sources: string[];
        };
        for (const source of sources) {
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(map), source));
          expect(listing.has(target), `${name}: ${map} points at ${source}`).toBe(true);
        }
      }
      fs.rmSync(unpacked, { recursive: true, force: true });
    }
  });

  it.each(Object.values(SERVER_PACKAGES).map((server) => server.bin))(
    '%s starts over stdio from the installed package, lists its tools and opens its database',
    async (bin) => {
      const transport = new StdioClientTransport({
        command: path.join(project, 'node_modules', '.bin', bin),
        cwd: project,
        env: cleanEnv({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: tempDir() }),
        stderr: 'pipe',
      });
      const client = clientFor('modern', 'packaging-check');
      await client.connect(transport);
      try {
        expectCompleteListing((await client.listTools()).tools, TOOLS_OF_BIN[bin] ?? []);
        const stored = await client.callTool(STORE_CALL_OF_BIN[bin]!);
        expect(stored.isError, JSON.stringify(stored.content)).not.toBe(true);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it("type-checks an embedder's code against every package's declarations (skipLibCheck off)", () => {
    fs.writeFileSync(
      path.join(project, 'embed.ts'),
      [
        "import { mount, runServer } from '@switchyard/server-kit';",
        "import { RunConfigSchema } from '@switchyard/contracts/launch-runs';",
        "import { journeyDomain } from '@switchyard/journey-continuity';",
        "import { launchRunsDomain } from '@switchyard/launch-runs';",
        "import { startSwitchyard } from '@switchyard/server';",
        "import { transitDomain } from '@switchyard/transit';",
        'export const used = [mount, runServer, RunConfigSchema, journeyDomain, launchRunsDomain,',
        '  startSwitchyard, transitDomain];',
        '',
      ].join('\n'),
    );
    const compilerOptions = {
      strict: true,
      module: 'nodenext',
      target: 'es2022',
      noEmit: true,
      skipLibCheck: false,
    };
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['embed.ts'] }),
    );
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', project], {
      cwd: project,
      encoding: 'utf8',
    });
    // Libraries' own declaration errors are theirs (drizzle's, for one); ours and the embedder's file must be clean.
    const ours = tsc.stdout
      .split('\n')
      .filter(
        (line) => /error TS/.test(line) && (line.startsWith('embed.ts') || line.includes('@switchyard/')),
      );
    expect(ours).toEqual([]);
  }, 300_000); // tsc reads every package's declarations: a minute and more on a loaded machine

  it('lets client code import the contracts on their own', () => {
    const script =
      "import('@switchyard/contracts/transit').then((m) => console.log(typeof m.GetDeparturesOutputSchema.parse))";
    expect(run(['node', '-e', script], project).trim()).toBe('function');
  });
});
