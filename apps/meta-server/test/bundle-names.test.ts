// scripts/bundle-bin.mjs, which every bin's build runs: without esbuild's keepNames (its __name wraps every
// function, closures made per call included), a class still answers to the name its module gave it where two
// bundled modules declare the same one (esbuild suffixes a number to one of them): error details read it
// (cause_class).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from './helpers.js';

const run = promisify(execFile);
const SCRIPT = path.join(REPO_ROOT, 'scripts', 'bundle-bin.mjs');

/** A package whose dist/ holds `files` (path -> text), bundled by the script; its bundled bin's output. */
async function bundleAndRun(files: Record<string, string>): Promise<{ stdout: string; bundle: string }> {
  const dir = tempDir('switchyard-bundle-names-');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bundle-names', type: 'module' }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, 'dist', file)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dist', file), text);
  }
  await run(process.execPath, [SCRIPT], { cwd: dir });
  const bundled = path.join(dir, 'dist', 'bundle', 'bin.js');
  const { stdout } = await run(process.execPath, [bundled]);
  const bundle = fs.readFileSync(bundled, 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  return { stdout, bundle };
}

describe('bundle-bin.mjs', () => {
  it('keeps the names of classes two modules both declare, declared or assigned, and wraps no function', async () => {
    const { stdout, bundle } = await bundleAndRun({
      'first.js': 'export class Clash extends Error {}\nexport let Assigned = class {};\n',
      'second.js': 'export class Clash extends Error {}\nexport let Assigned = class {};\n',
      'bin.js': [
        "import * as first from './first.js';",
        "import * as second from './second.js';",
        'const perCall = () => () => undefined;',
        'console.log(JSON.stringify([',
        '  first.Clash.name, second.Clash.name, new second.Clash().constructor.name,',
        '  first.Assigned.name, second.Assigned.name, perCall().name,',
        ']));',
      ].join('\n'),
    });
    expect(JSON.parse(stdout)).toEqual(['Clash', 'Clash', 'Clash', 'Assigned', 'Assigned', '']);
    // The second of each was renamed in the bundle: its name was given back, not kept by __name.
    expect(bundle).toMatch(/Clash2/);
    expect(bundle).not.toMatch(/__name/);
  });

  it('leaves a class whose module gave it a name ending in a number as it is', async () => {
    const { stdout } = await bundleAndRun({
      'first.js': 'export class Base {}\n',
      'second.js': 'export class Base2 extends Error {}\n',
      'bin.js': [
        "import { Base } from './first.js';",
        "import { Base2 } from './second.js';",
        'console.log(JSON.stringify([Base.name, Base2.name]));',
      ].join('\n'),
    });
    expect(JSON.parse(stdout)).toEqual(['Base', 'Base2']);
  });
});
