import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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

    it('lists its files, README and CHANGELOG, and the engines it runs on', () => {
      expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'CHANGELOG.md']));
      expect(manifest.engines?.node).toBe('>=22');
      expect(fs.existsSync(path.join(dir, 'README.md')), `${name} README.md`).toBe(true);
      expect(fs.existsSync(path.join(dir, 'CHANGELOG.md')), `${name} CHANGELOG.md`).toBe(true);
    });

    const server = SERVER_PACKAGES[name];
    if (server !== undefined) {
      it(`has the bin ${server.bin}, and a server.json for the MCP registry`, () => {
        expect(manifest.bin).toEqual({ [server.bin]: './dist/bin.js' });
        const serverJson = JSON.parse(
          fs.readFileSync(path.join(dir, '..', '..', server.serverJson), 'utf8'),
        ) as { packages: { identifier: string; version: string }[] };
        expect(serverJson.packages[0]).toMatchObject({ identifier: name, version: manifest.version });
      });
    } else {
      it('has no bin (it is a library)', () => {
        expect(manifest.bin).toBeUndefined();
      });
    }
  });
});
