// `pnpm measure:simplification [git-ref]`: the sizes issue #15 asks to shrink, at the working tree or at a
// commit, so that a change can report before and after with one command:
//   pnpm measure:simplification 3e4e7ba && pnpm measure:simplification
// Lines are all lines of the TypeScript files under each part; conditional spreads are the
// `...(cond ? {} : { ... })` idiom in non-test source.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PARTS = [
  ['launch-runs runs/', 'packages/launch-runs/src/runs'],
  ['launch-runs pipeline/markdown/', 'packages/launch-runs/src/pipeline/markdown'],
  ['launch-runs telemetry/', 'packages/launch-runs/src/telemetry'],
  ['upstream-mocks src/', 'packages/upstream-mocks/src'],
];
const SOURCE_ROOTS = ['packages', 'apps'];
const CONDITIONAL_SPREAD = /\.\.\.\([^;]*?\?\s*\{\s*\}\s*:\s*\{/g;

const ref = process.argv[2];

/** Paths of the .ts files under `prefix`, at `ref` or in the working tree. */
function tsFiles(prefix) {
  if (ref !== undefined) {
    const listed = execFileSync('git', ['ls-tree', '-r', '--name-only', ref, '--', prefix], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    return listed.split('\n').filter((file) => file.endsWith('.ts'));
  }
  const found = [];
  const walk = (dir) => {
    if (!fs.existsSync(path.join(ROOT, dir))) return;
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const child = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts')) found.push(child);
    }
  };
  walk(prefix);
  return found;
}

function read(file) {
  if (ref === undefined) return fs.readFileSync(path.join(ROOT, file), 'utf8');
  return execFileSync('git', ['show', `${ref}:${file}`], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
}

const lines = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

const rows = PARTS.map(([label, prefix]) => [
  label,
  tsFiles(prefix).reduce((sum, f) => sum + lines(read(f)), 0),
]);
const sources = SOURCE_ROOTS.flatMap((root) => tsFiles(root)).filter(
  (file) => /\/src\//.test(file) && !file.endsWith('.d.ts'),
);
const spreads = sources.reduce((sum, file) => sum + (read(file).match(CONDITIONAL_SPREAD)?.length ?? 0), 0);
rows.push(['conditional spreads in src/', spreads]);

console.log(`issue #15 sizes at ${ref ?? 'the working tree'}`);
for (const [label, value] of rows) console.log(`${label.padEnd(32)} ${String(value).padStart(6)}`);
