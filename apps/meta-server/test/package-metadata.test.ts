import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers.js';
import { LIBRARY_PACKAGES, publishedPackages, SERVER_PACKAGES } from './published-packages.js';

const packages = publishedPackages();

describe('what every published package ships', () => {
  it('publishes exactly the known servers and libraries (a new package must be classified here)', () => {
    expect(packages.map((p) => p.manifest.name).sort()).toEqual(
      [...Object.keys(SERVER_PACKAGES), ...LIBRARY_PACKAGES].sort(),
    );
  });

  describe.each(packages.map((p) => [p.manifest.name, p] as const))('%s', (name, { dir, manifest }) => {
    it('declares exports with types for every JavaScript entry point', () => {
      const entries = Object.entries(manifest.exports ?? {});
      expect(entries.length).toBeGreaterThan(0);
      expect(manifest.exports).toHaveProperty('.');
      for (const [subpath, target] of entries) {
        // Plain files (JSON schemas, fixtures, package.json) are exported as strings and have no types.
        if (typeof target === 'string') continue;
        expect(target, `${name} exports["${subpath}"]`).toMatchObject({
          types: expect.stringMatching(/\.d\.ts$/),
          default: expect.stringMatching(/\.js$/),
        });
      }
    });

    it('lists its files, README, CHANGELOG and LICENSE, and the engines it runs on', () => {
      // src ships too: the source maps and declaration maps in dist point at it.
      expect(manifest.files).toEqual(
        expect.arrayContaining(['dist', 'src', 'README.md', 'CHANGELOG.md', 'LICENSE']),
      );
      expect(manifest.engines?.node).toBe('>=22.19');
      expect(fs.existsSync(path.join(dir, 'README.md')), `${name} README.md`).toBe(true);
      expect(fs.existsSync(path.join(dir, 'CHANGELOG.md')), `${name} CHANGELOG.md`).toBe(true);
      expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8'), `${name} LICENSE`).toBe(
        fs.readFileSync(path.join(REPO_ROOT, 'LICENSE'), 'utf8'),
      );
    });

    it('says in its README why each runtime dependency is there', () => {
      const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
      const named = (dependency: string) =>
        [`\`${dependency}\``, `\`${dependency}/`, `**${dependency}**`].some((form) => readme.includes(form));
      const dependencies = Object.keys(manifest.dependencies ?? {});
      expect(dependencies.filter((dependency) => !named(dependency))).toEqual([]);
    });

    it('says where it lives, where to report bugs, and what it is about', () => {
      expect(manifest.homepage).toMatch(/^https:\/\/github\.com\/switchyard-mcp\/switchyard\//);
      expect(manifest.bugs?.url).toBe('https://github.com/switchyard-mcp/switchyard/issues');
      expect(manifest.keywords).toEqual(expect.arrayContaining(['mcp', 'model-context-protocol']));
    });

    const server = SERVER_PACKAGES[name];
    if (server !== undefined) {
      it(`has the bin ${server.bin}, and a server.json for the MCP registry`, () => {
        // The bin file exists before a build (so installing a clone links it quietly) and starts the bundle,
        // once the Node running it is new enough.
        expect(manifest.bin).toEqual({ [server.bin]: `./bin/${server.bin}.js` });
        expect(fs.readFileSync(path.join(dir, 'bin', `${server.bin}.js`), 'utf8')).toContain(
          `if (nodeIsSupported('${server.bin}')) await import('../dist/bundle/bin.js');`,
        );
        expect(manifest.files).toContain('bin');
        const serverJson = JSON.parse(
          fs.readFileSync(path.join(dir, '..', '..', server.serverJson), 'utf8'),
        ) as { version: string; packages: { identifier: string; version: string }[] };
        // `pnpm version-packages` keeps these in step (scripts/sync-server-json.mjs).
        expect(serverJson.version).toBe(manifest.version);
        expect(serverJson.packages[0]).toMatchObject({ identifier: name, version: manifest.version });
      });
    } else {
      it('has no bin (it is a library)', () => {
        expect(manifest.bin).toBeUndefined();
      });
    }
  });
});
