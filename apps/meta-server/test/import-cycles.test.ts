// scripts/import-cycles.mjs, the check `pnpm test` and `pnpm lint` run: it finds loops of imports within a
// package and across packages, type-only imports included, and the repository has none.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from './helpers.js';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'import-cycles.mjs');

/** A workspace with `files` (path -> text) and, for each package folder named, its package.json. */
function workspace(packages: Record<string, object>, files: Record<string, string>): string {
  const root = tempDir('switchyard-cycles-');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  fs.mkdirSync(path.join(root, 'apps'));
  for (const [dir, manifest] of Object.entries(packages))
    write(`${dir}/package.json`, JSON.stringify(manifest));
  for (const [file, text] of Object.entries(files)) write(file, text);
  return root;
}

async function check(root: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, '--root', root]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const A = { 'packages/a': { name: '@switchyard/a', exports: { '.': { default: './dist/index.js' } } } };

describe('scripts/import-cycles.mjs', () => {
  it('fails on a loop of type-only imports and names the files in import order', async () => {
    const root = workspace(A, {
      'packages/a/src/index.ts': "export { run } from './run.js';\n",
      'packages/a/src/run.ts': "import type { Store } from './store/store.js';\nexport const run = 1;\n",
      'packages/a/src/store/store.ts':
        "import type { run } from '../run.js';\nexport type Store = typeof run;\n",
    });
    const { code, stdout, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stdout).toContain('import cycles in packages/*/src and apps/*/src: 1');
    expect(stderr).toContain(
      'import cycle among 2 files:\n  packages/a/src/run.ts\n  -> packages/a/src/store/store.ts\n  -> packages/a/src/run.ts',
    );
  });

  it('follows a workspace package to the source of the export it names, so a loop across packages counts', async () => {
    const root = workspace(
      {
        ...A,
        'apps/b': { name: '@switchyard/b', exports: { './domain': { default: './dist/domain/index.js' } } },
      },
      {
        'packages/a/src/index.ts':
          "import { domain } from '@switchyard/b/domain';\nexport const a = domain;\n",
        'apps/b/src/domain/index.ts': "export const domain = import('@switchyard/a');\n",
      },
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'apps/b/src/domain/index.ts\n  -> packages/a/src/index.ts\n  -> apps/b/src/domain/index.ts',
    );
  });

  it('passes a tree whose imports run one way, external packages and tests left out', async () => {
    const root = workspace(A, {
      'packages/a/src/index.ts':
        "import { z } from 'zod';\nimport { run } from './run.js';\nexport const a = [z, run];\n",
      'packages/a/src/run.ts': 'export const run = 1;\n',
      'packages/a/test/run.test.ts': "import { a } from '../src/index.js';\nexport const b = a;\n",
    });
    expect(await check(root)).toMatchObject({ code: 0, stderr: '' });
  });

  it('finds no import cycle in packages/*/src and apps/*/src', async () => {
    const { code, stdout, stderr } = await check(REPO_ROOT);
    expect(stderr).toBe('');
    expect(stdout).toContain('import cycles in packages/*/src and apps/*/src: 0');
    expect(code).toBe(0);
  });
});
