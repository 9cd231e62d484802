// Bundles a server package's compiled entry (dist/bin.js, written by tsc) into dist/bundle/ with esbuild; the
// package's bin starts that. Run from the package directory, after tsc (its `build` script does both).
//
// Why: Node resolves every module of an unbundled server separately and reads its package's scope for each one;
// for drizzle-orm (448 modules, a 180 KB package.json export map) that alone cost ~120 ms and ~80 MiB of
// garbage at the first database call. One bundle, split only where the code already loads lazily (each
// dynamic import() becomes a chunk), keeps every lazy load lazy and drops the modules nothing uses.
//
// Modules that find files next to themselves (`import.meta.url`: icons, migrations, package.json, schemas) are
// rewritten to look where their package is installed: `import.meta.resolve(<package>)` plus the module's path
// inside it. Such a package, and every external, must be a dependency of the bundling package (or the package
// itself): the build fails naming it otherwise.
//
// `--self-contained` (the combined server): the bundle is the package's only copy of its code, its library
// entry (dist/index.js, as dist/bundle/index.js) and the Node check its bin runs first (server-kit's
// node-version, as dist/bundle/node-version.js) included, so that installing it installs no dependency the
// bundle already holds: only the externals. The files other packages' modules find next to themselves are
// copied under dist/bundle/packages/<package>/ and found there.
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';

/**
 * Native addons stay ordinary imports, resolved from the installed package; so does pg, whose optional native
 * binding (pg-native) is required only when asked for, and which loads only for a PostgreSQL database.
 */
const EXTERNAL = ['better-sqlite3', 'pg'];
const OUT_DIR = 'dist/bundle';
const NOTICES_FILE = 'THIRD-PARTY-NOTICES.txt';

const packageDir = process.cwd();
const manifest = readJson(path.join(packageDir, 'package.json'));
const selfContained = process.argv.includes('--self-contained');
/** What the bundle may find installed: itself and its dependencies. */
const resolvable = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {})]);
// A self-contained bundle holds all but the externals: another dependency would be a second, installed copy.
const bundledAndInstalled = Object.keys(manifest.dependencies ?? {}).filter(
  (name) => !EXTERNAL.includes(name),
);
if (selfContained && bundledAndInstalled.length > 0) {
  throw new Error(`${manifest.name} bundles ${bundledAndInstalled.join(', ')}: make them devDependencies`);
}
/** Self-contained: where each package whose files are found next to its modules is copied. */
const COPIES_DIR = 'packages';
/** What of such a package is code (in the bundle already) or text nobody reads at run time. */
const NOT_COPIED = new Set(['bin', 'src', 'docs', 'README.md', 'CHANGELOG.md', 'LICENSE', 'server.json']);
/** A package's built code and what describes it; its other files in dist/ (a view's HTML page) are copied. */
const BUNDLED_CODE = /\.(js|d\.ts|map|tsbuildinfo)$/;
/** Self-contained: the packages whose files were found next to their modules, by name. */
const copied = new Map();

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The nearest package above `file` that has a name: its directory and manifest. */
function packageOf(file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const owner = readJson(candidate);
      if (typeof owner.name === 'string') return { dir, manifest: owner };
    }
  }
  throw new Error(`${file} is not inside a package`);
}

function requireDependency(name, reason) {
  if (!resolvable.has(name))
    throw new Error(`${reason}, but ${name} is not a dependency of ${manifest.name}`);
}

/** The file `import.meta.resolve(<package>)` lands on: its main export. */
function mainEntry(owner) {
  const main = owner.manifest.exports?.['.'] ?? owner.manifest.exports ?? owner.manifest.main;
  const file = typeof main === 'string' ? main : (main?.import ?? main?.default);
  if (typeof file !== 'string') throw new Error(`${owner.manifest.name} has no main export`);
  return path.join(owner.dir, file);
}

/** `file`'s URL where its package is installed. */
function locatedInstalled(owner, file) {
  requireDependency(owner.manifest.name, `${file} uses import.meta.url`);
  const inside = path
    .relative(path.dirname(mainEntry(owner)), file)
    .split(path.sep)
    .join('/');
  const relative = inside.startsWith('.') ? inside : `./${inside}`;
  return `new URL(${JSON.stringify(relative)}, import.meta.resolve(${JSON.stringify(owner.manifest.name)})).href`;
}

/** `file`'s URL from a chunk in dist/bundle/: its own package is two folders up, any other copied beside it. */
function locatedInBundle(owner, file) {
  const inside = path.relative(owner.dir, file).split(path.sep).join('/');
  if (owner.manifest.name === manifest.name)
    return `new URL(${JSON.stringify(`../../${inside}`)}, import.meta.url).href`;
  copied.set(owner.manifest.name, owner);
  return `new URL(${JSON.stringify(`./${COPIES_DIR}/${owner.manifest.name}/${inside}`)}, import.meta.url).href`;
}

/** Whether a file is worth copying beside the bundle: not code it holds already, nor that code's types or maps. */
function notBundledCode(file) {
  return fs.statSync(file).isDirectory() || !BUNDLED_CODE.test(file);
}

/** Copies what each package found next to its modules may read (its manifest, icons, migrations, schemas, views). */
function copyPackageFiles() {
  for (const [name, owner] of copied) {
    const target = path.join(packageDir, OUT_DIR, COPIES_DIR, name);
    fs.mkdirSync(target, { recursive: true });
    fs.copyFileSync(path.join(owner.dir, 'package.json'), path.join(target, 'package.json'));
    for (const entry of owner.manifest.files ?? []) {
      if (NOT_COPIED.has(entry) || !fs.existsSync(path.join(owner.dir, entry))) continue;
      fs.cpSync(path.join(owner.dir, entry), path.join(target, entry), {
        recursive: true,
        filter: notBundledCode,
      });
    }
  }
}

/** The entry points: the bin; self-contained, the library and the Node check too. */
function entryPoints() {
  if (!selfContained) return { bin: 'dist/bin.js' };
  const require = createRequire(path.join(packageDir, 'package.json'));
  return {
    bin: 'dist/bin.js',
    index: 'dist/index.js',
    'node-version': require.resolve('@switchyard/server-kit/node-version'),
  };
}

const locateFromInstalledPackage = {
  name: 'locate-from-installed-package',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const owner = packageOf(args.path);
      const located = selfContained ? locatedInBundle(owner, args.path) : locatedInstalled(owner, args.path);
      return { contents: source.replaceAll('import.meta.url', located), loader: 'js' };
    });
  },
};

/** The license text of every third-party package in the bundle (it is redistributed in it). */
function thirdPartyNotices(metafile) {
  const owners = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    if (!input.includes('node_modules')) continue;
    const owner = packageOf(path.resolve(packageDir, input));
    owners.set(`${owner.manifest.name}@${owner.manifest.version}`, owner);
  }
  return [...owners.keys()]
    .sort()
    .map((id) => {
      const owner = owners.get(id);
      const licenseFile = fs.readdirSync(owner.dir).find((name) => /^(licen[cs]e|copying)/i.test(name));
      const text =
        licenseFile === undefined ? '' : fs.readFileSync(path.join(owner.dir, licenseFile), 'utf8');
      return `${id} (${owner.manifest.license ?? 'see package'})\n\n${text.trim()}\n`;
    })
    .join(`\n${'-'.repeat(78)}\n\n`);
}

/** A class a module names: declared, or an anonymous class assigned (which takes the binding's name). */
const CLASS_DECLARATION = /\bclass ([A-Za-z_$][\w$]*)|\b([A-Za-z_$][\w$]*)\s*=\s*class\b/g;
const RENAMABLE_CLASS = /(?:\bclass ([A-Za-z_$][\w$]*)|\b([A-Za-z_$][\w$]*)=class)( extends [^{]*)?\{/g;

/**
 * Where two bundled modules declare the same top-level name, esbuild suffixes a number to one of them; for a class
 * that changes its `name`, which error details and logs read (cause_class). Each class the bundle renamed gets the
 * name its module gave it, as a static block (functions keep the suffix: only a stack trace shows it).
 */
function restoreClassNames(metafile) {
  const declared = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const file = path.join(packageDir, input);
    if (!fs.existsSync(file)) continue;
    for (const [, named, assigned] of fs.readFileSync(file, 'utf8').matchAll(CLASS_DECLARATION))
      declared.add(named ?? assigned);
  }
  const originalOf = (name) => {
    for (let end = name.length - 1; end > 0 && /\d/.test(name[end]); end -= 1) {
      if (declared.has(name.slice(0, end))) return name.slice(0, end);
    }
    return undefined;
  };
  for (const output of Object.keys(metafile.outputs).filter((file) => file.endsWith('.js'))) {
    const file = path.join(packageDir, output);
    const code = fs.readFileSync(file, 'utf8');
    // `class X2 extends Y{` as declared, or `X2=class extends Y{` as esbuild writes a class a lazily run module declares.
    const restored = code.replace(RENAMABLE_CLASS, (whole, declaredName, assignedName) => {
      const name = declaredName ?? assignedName;
      const original = declared.has(name) ? undefined : originalOf(name);
      if (original === undefined) return whole;
      return `${whole}static{Object.defineProperty(this,"name",{value:"${original}"})}`;
    });
    if (restored !== code) fs.writeFileSync(file, restored);
  }
}

fs.rmSync(path.join(packageDir, OUT_DIR), { recursive: true, force: true });
const result = await esbuild.build({
  absWorkingDir: packageDir,
  entryPoints: entryPoints(),
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // A package's ES module build first: some `main` builds are UMD wrappers whose require() calls a bundler
  // cannot follow (jsonc-parser's).
  mainFields: ['module', 'main'],
  external: EXTERNAL,
  // Whitespace, comments and syntax minified (identifiers not, for stack traces): a start reads, decodes and
  // compiles a quarter fewer bytes, all of them ASCII (V8 then keeps each source in one byte a character).
  minifyWhitespace: true,
  minifySyntax: true,
  // Not keepNames: it wraps every function in __name, closures made per call included (6-12 KiB and ~0.01 ms a
  // transit call). A class the bundle renamed gets its name back instead (restoreClassNames).
  keepNames: false,
  legalComments: 'none',
  // CommonJS dependencies call require(); in an ES module it comes from createRequire.
  banner: {
    js: [
      "import { createRequire as __switchyardCreateRequire } from 'node:module';",
      'const require = __switchyardCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  plugins: [locateFromInstalledPackage],
  logLevel: 'warning',
  metafile: true,
});
for (const output of Object.values(result.metafile.outputs)) {
  for (const imported of output.imports) {
    if (imported.external && !isBuiltin(imported.path)) {
      const name = imported.path
        .split('/')
        .slice(0, imported.path.startsWith('@') ? 2 : 1)
        .join('/');
      requireDependency(name, `the bundle imports ${imported.path}`);
    }
  }
}
restoreClassNames(result.metafile);
fs.writeFileSync(path.join(packageDir, OUT_DIR, NOTICES_FILE), thirdPartyNotices(result.metafile));
if (selfContained) copyPackageFiles();
