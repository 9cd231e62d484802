// A build starts from an empty dist/: tsc never deletes the output of a removed source file, and such a stale
// module would be packed with a source map naming a file the tarball lacks.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../helpers.js';

const CLEAN_STEP = 'node ../../scripts/clean-dist.mjs && ';

function buildScriptOf(packageDir: string): string | undefined {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    scripts?: { build?: string };
  };
  return manifest.scripts?.build;
}

const PACKAGE_DIRS = ['packages', 'apps'].flatMap((parent) =>
  fs
    .readdirSync(path.join(REPO_ROOT, parent))
    .map((name) => path.join(REPO_ROOT, parent, name))
    .filter((dir) => fs.existsSync(path.join(dir, 'package.json'))),
);

describe('builds', () => {
  it.each(PACKAGE_DIRS.map((dir) => path.relative(REPO_ROOT, dir)))('%s empties dist first', (dir) => {
    const build = buildScriptOf(path.join(REPO_ROOT, dir));
    if (build === undefined) return;
    expect(build.startsWith(CLEAN_STEP)).toBe(true);
  });

  it("leaves nothing of a removed source file (resilience's own build script, in a copy of the package)", () => {
    const root = tempDir('switchyard-clean-build-');
    try {
      const source = path.join(REPO_ROOT, 'packages', 'resilience');
      const copy = path.join(root, 'packages', 'resilience');
      fs.mkdirSync(copy, { recursive: true });
      fs.cpSync(path.join(REPO_ROOT, 'scripts'), path.join(root, 'scripts'), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, 'tsconfig.base.json'), path.join(root, 'tsconfig.base.json'));
      for (const entry of ['src', 'package.json', 'tsconfig.build.json'])
        fs.cpSync(path.join(source, entry), path.join(copy, entry), { recursive: true });
      fs.symlinkSync(path.join(source, 'node_modules'), path.join(copy, 'node_modules'));
      const stale = path.join(copy, 'dist', 'removed-module.js');
      fs.mkdirSync(path.dirname(stale), { recursive: true });
      fs.writeFileSync(stale, 'export {};\n');

      const tscBin = path.join(REPO_ROOT, 'node_modules', '.bin');
      const result = spawnSync('sh', ['-c', buildScriptOf(copy) ?? 'false'], {
        cwd: copy,
        encoding: 'utf8',
        env: { PATH: `${tscBin}${path.delimiter}${process.env.PATH ?? ''}` },
      });

      expect(result.stderr + result.stdout).toBe('');
      expect(result.status).toBe(0);
      expect(fs.existsSync(stale)).toBe(false);
      expect(fs.existsSync(path.join(copy, 'dist', 'index.js'))).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
