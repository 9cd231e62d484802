// `pnpm measure:simplification [git-ref]`: the sizes issue #15 asks to shrink, at the working tree or at a
// commit, beside the baseline, so that a change can report before and after with one command:
//   pnpm measure:simplification 3e4e7ba && pnpm measure:simplification
// Then the figures issue #35 ("done when") sets targets for, at the same tree.
// Lines are all lines of the TypeScript files under each part; conditional spreads are the
// `...(cond ? {} : { ... })` idiom in non-test source. The issue counts apart the code other issues added for
// their own features: that is the FEATURES table below, and the column "without them".
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { findImportCycles } from './import-cycles.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The tree the issue measured ("today: runs 1.6k, markdown 421, ..."). */
const BASELINE = 'd01d2a6';
const PARTS = [
  ['launch-runs runs/', 'packages/launch-runs/src/runs'],
  ['launch-runs pipeline/markdown/', 'packages/launch-runs/src/pipeline/markdown'],
  ['launch-runs telemetry/', 'packages/launch-runs/src/telemetry'],
  ['upstream-mocks src/', 'packages/upstream-mocks/src'],
];
const SOURCE_ROOTS = ['packages', 'apps'];
const CONDITIONAL_SPREAD = /\.\.\.\([^;]*?\?\s*\{\s*\}\s*:\s*\{/g;

/**
 * Other issues' features inside the parts, after the baseline. A file that is wholly one feature counts at its
 * size in the measured tree (so later simplification of it is not counted twice); a feature woven into shared
 * files counts as the net lines its commit added to the part.
 */
const FEATURES = {
  'launch-runs runs/': {
    commits: [
      ['#11 bounded repository reads, applied fixes only', '796dfb5'],
      ['#13 MCP SDK v2 and the domain seam', '2d0f590'],
      ['#17 runs belong to their principal', '4bab963'],
      ['#18 one asynchronous store, PostgreSQL, takeover', 'f27e049'],
      ['#18 workspace rebuilt on another replica', '5c0aba4'],
      ['#18 one status snapshot, a lease released here', '08bdeb4'],
      ["untrusted callers: a bound on a principal's runs, ended runs' workspaces", 'f7259e7'],
      ["untrusted callers: a DONE run's validation counts against that bound", 'b692afd'],
      ["untrusted callers: a replica removes ended runs' workspaces as it runs", '302f087'],
      ["untrusted callers: that sweep walks only runs under way; the limit's message", '679e25b'],
    ],
  },
  'upstream-mocks src/': {
    files: [
      ['#11 oversized bodies', 'oversized.ts'],
      ['#16 London arrivals', 'tfl/arrivals.ts'],
      ['#16 London line status', 'tfl/line-status.ts'],
      ['#16 London stop points', 'tfl/stops.ts'],
      ['#16 Helsinki service alerts', 'digitransit/alerts.ts'],
      ['#17 the OpenID provider', 'oidc/provider.ts'],
    ],
  },
};

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });

/** Paths of the .ts files under `prefix`, at `ref` or (ref undefined) in the working tree. */
function tsFiles(ref, prefix) {
  if (ref !== undefined) {
    return git('ls-tree', '-r', '--name-only', ref, '--', prefix)
      .split('\n')
      .filter((file) => file.endsWith('.ts'));
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

function read(ref, file) {
  return ref === undefined ? fs.readFileSync(path.join(ROOT, file), 'utf8') : git('show', `${ref}:${file}`);
}

function exists(ref, file) {
  if (ref === undefined) return fs.existsSync(path.join(ROOT, file));
  return git('ls-tree', '--name-only', ref, '--', file).trim() !== '';
}

const lines = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
const partLines = (ref, prefix) => tsFiles(ref, prefix).reduce((sum, f) => sum + lines(read(ref, f)), 0);

function isAncestor(commit, ref) {
  try {
    git('merge-base', '--is-ancestor', commit, ref ?? 'HEAD');
    return true;
  } catch {
    return false;
  }
}

/** Lines of other issues' features in the part at `prefix`, in the tree of `ref`. */
function featureLines(ref, label, prefix) {
  const { files = [], commits = [] } = FEATURES[label] ?? {};
  const inFiles = files
    .map(([, file]) => `${prefix}/${file}`)
    .filter((file) => exists(ref, file))
    .reduce((sum, file) => sum + lines(read(ref, file)), 0);
  const inCommits = commits
    .filter(([, commit]) => isAncestor(commit, ref))
    .flatMap(([, commit]) => git('show', '--numstat', '--format=', commit, '--', prefix).trim().split('\n'))
    .filter((row) => row !== '')
    .reduce((sum, row) => {
      const [added, removed] = row.split('\t').map(Number);
      return sum + added - removed;
    }, 0);
  return inFiles + inCommits;
}

function conditionalSpreads(ref) {
  const sources = SOURCE_ROOTS.flatMap((root) => tsFiles(ref, root)).filter(
    (file) => /\/src\//.test(file) && !file.endsWith('.d.ts'),
  );
  return sources.reduce((sum, file) => sum + (read(ref, file).match(CONDITIONAL_SPREAD)?.length ?? 0), 0);
}

const ref = process.argv[2];
const row = (cells) => `| ${cells.join(' | ')} |`;
/** The change against the baseline, and whether it is the third less the issue asks for. */
const verdict = (now, before) => [
  `${((100 * (now - before)) / before).toFixed(1)}%`,
  now <= (before * 2) / 3 ? 'met' : `no (${Math.floor((before * 2) / 3)} or fewer)`,
];

console.log(`issue #15 sizes at ${ref ?? 'the working tree'}, against the baseline ${BASELINE}\n`);
console.log(
  row(['part', BASELINE, ref ?? 'now', "other issues' features", 'without them', 'change', 'a third less']),
);
console.log(row(['---', '---:', '---:', '---:', '---:', '---:', '---']));
for (const [label, prefix] of PARTS) {
  const before = partLines(BASELINE, prefix);
  const now = partLines(ref, prefix);
  const features = featureLines(ref, label, prefix);
  console.log(row([label, before, now, features, now - features, ...verdict(now - features, before)]));
}
const spreadsBefore = conditionalSpreads(BASELINE);
const spreadsNow = conditionalSpreads(ref);
console.log(
  row([
    'conditional spreads in src/',
    spreadsBefore,
    spreadsNow,
    0,
    spreadsNow,
    ...verdict(spreadsNow, spreadsBefore),
  ]),
);

// Issue #35: the run engine's targets.
const STORE_DIALECTS = [
  ['SQLite', 'packages/launch-runs/src/store/sqlite-launch-store.ts'],
  ['PostgreSQL', 'packages/launch-runs/src/store/postgres-launch-store.ts'],
];
/** The LaunchStore lease calls, which the issue counts apart from the write methods. */
const LEASE_CALLS = new Set([
  'acquireLease',
  'renewLease',
  'releaseLease',
  'cancelRequest',
  'claimAbandoned',
]);
/**
 * What a method that writes calls: drizzle's write builders, a dialect's write transaction (`this.transaction`,
 * statement-launch-store.ts) or a write statement of the transaction port (store/run-transactions.ts).
 */
const WRITE_CALLS = new Set([
  ...['insert', 'update', 'delete', 'insertRow', 'write', 'replaceIssues', 'putArtifact', 'insertEvents'],
  ...['insertTask', 'endTask', 'updateRuns'],
]);
/** The base class both dialect stores extend (its methods are theirs). */
const SHARED_STORE = 'packages/launch-runs/src/store/statement-launch-store.ts';
const DOMAIN_BRANCH = /\b(case|===|!==)\s*'(transit|journey|launch)[\w-]*'/g;

/** Whether `call` is `this.transaction(...)` or a call of a write builder or write statement. */
function callsWrite(call) {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const name = callee.name.text;
  if (name === 'transaction') return callee.expression.kind === ts.SyntaxKind.ThisKeyword;
  return WRITE_CALLS.has(name);
}

/**
 * The public methods of the exported class in `text` that write, lease calls apart: those whose body calls a
 * write (callsWrite), so that a read (a task by its id, a snapshot in a read transaction) is not counted.
 */
function writeMethods(text) {
  const source = ts.createSourceFile('store.ts', text, ts.ScriptTarget.Latest, true);
  const writes = (node) =>
    (ts.isCallExpression(node) && callsWrite(node)) || (ts.forEachChild(node, writes) ?? false);
  const names = [];
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement)) continue;
    for (const member of statement.members) {
      if (!ts.isMethodDeclaration(member) || member.name === undefined || member.body === undefined) continue;
      const hidden = (ts.getModifiers(member) ?? []).some(
        (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
      );
      const name = member.name.getText(source);
      if (!hidden && !name.startsWith('#') && !LEASE_CALLS.has(name) && writes(member.body)) names.push(name);
    }
  }
  return names;
}

const branchesPerDomain = tsFiles(ref, 'apps/meta-server/src').reduce(
  (sum, file) => sum + (read(ref, file).match(DOMAIN_BRANCH)?.length ?? 0),
  0,
);
const runsLines = partLines(ref, 'packages/launch-runs/src/runs');
console.log(`\nissue #35 figures at ${ref ?? 'the working tree'}\n`);
console.log(row(['figure', 'now', 'target', '']));
console.log(row(['---', '---:', '---:', '---']));
const target = (label, now, most, detail = '') =>
  console.log(row([label, now, `<= ${most}`, `${now <= most ? 'met' : 'no'}${detail}`]));
target('launch-runs runs/ lines', runsLines, 1400);
for (const [dialect, file] of STORE_DIALECTS) {
  if (!exists(ref, file)) continue;
  const text = read(ref, file);
  // A dialect's writes include those it inherits from the class both dialects extend.
  const inherited = exists(ref, SHARED_STORE) ? writeMethods(read(ref, SHARED_STORE)) : [];
  const writes = [...new Set([...writeMethods(text), ...inherited])];
  target(`${dialect} store file lines`, lines(text), 250);
  target(`${dialect} store write methods`, writes.length, 2, ` (${writes.join(', ')})`);
}
target('branches on a domain name in apps/meta-server/src', branchesPerDomain, 0);
if (ref === undefined) target('import cycles in packages/*/src and apps/*/src', findImportCycles().length, 0);
