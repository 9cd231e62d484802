#!/usr/bin/env node
// `node scripts/import-cycles.mjs [--root DIR]`: fails when the sources of packages/*/src and apps/*/src import each other in a
// loop. Every import counts (type-only ones and `import()` too): a loop of types is still two modules that cannot
// be read, tested or moved one without the other. An import of a workspace package (`@switchyard/x/sub`) is
// followed to the source file its export names, so a loop across packages is found as well.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { root as repositoryRoot, workspacePackages } from './workspace-packages.mjs';

/** `.ts` files under `dir`, declarations and build output left out. */
function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every module specifier a file names: static imports and re-exports, `import()` and `import x = require()`. */
function specifiers(file) {
  return ts
    .preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((ref) => ref.fileName);
}

/** `@switchyard/x/sub` -> the source file behind that export, for every export of every workspace package. */
function workspaceEntries(rootDir) {
  const entries = new Map();
  for (const { dir, manifest } of workspacePackages(rootDir)) {
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const built = typeof target === 'string' ? target : target.default;
      if (typeof built !== 'string' || subpath.includes('*') || !/^\.\/dist\/.*\.js$/.test(built)) continue;
      const source = path.join(dir, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      entries.set(manifest.name + subpath.slice(1), source);
    }
  }
  return entries;
}

function resolveRelative(from, specifier) {
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, path.join(target, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && fs.existsSync(candidate));
}

/** The import graph: file -> files it imports, for the sources of every workspace package. */
export function importGraph(rootDir = repositoryRoot) {
  const entries = workspaceEntries(rootDir);
  const files = workspacePackages(rootDir).flatMap(({ dir }) => sourceFiles(path.join(dir, 'src')));
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const targets = specifiers(file).map((specifier) =>
      specifier.startsWith('.') ? resolveRelative(file, specifier) : entries.get(specifier),
    );
    graph.set(file, [...new Set(targets.filter((target) => target !== undefined && known.has(target)))]);
  }
  return graph;
}

/** Strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function loops(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file), index.get(target)));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file).includes(file)) found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** One loop through `component`, as the files in import order ending where it began (breadth-first, shortest). */
function oneLoop(graph, component) {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const target of graph.get(file)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const trail = [file];
        while (trail[0] !== start) trail.unshift(cameFrom.get(trail[0]));
        return [...trail, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Each import cycle as `{ files, loop }`: the files that import each other, and one loop through them. */
export function findImportCycles(rootDir = repositoryRoot) {
  const graph = importGraph(rootDir);
  const relative = (file) => path.relative(rootDir, file);
  return loops(graph).map((component) => ({
    files: component.map(relative).sort(),
    loop: oneLoop(graph, component).map(relative),
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rootAt = process.argv.indexOf('--root');
  const cycles = findImportCycles(rootAt === -1 ? repositoryRoot : path.resolve(process.argv[rootAt + 1]));
  for (const { files, loop } of cycles) {
    console.error(`import cycle among ${files.length} files:\n  ${loop.join('\n  -> ')}`);
  }
  console.log(`import cycles in packages/*/src and apps/*/src: ${cycles.length}`);
  process.exit(cycles.length === 0 ? 0 : 1);
}
