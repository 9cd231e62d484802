import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** The module specifiers of every `.ts` file under `dir` (src-relative file -> specifiers). */
function importsUnder(dir: string): [file: string, specifier: string][] {
  return fs
    .readdirSync(path.join(srcDir, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => {
      const text = fs.readFileSync(path.join(srcDir, dir, file), 'utf8');
      const found = [...text.matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((match) => match[1]!);
      return found.map((specifier): [string, string] => [path.join(dir, file), specifier]);
    });
}

/** Where a relative specifier of `file` lands, src-relative. */
const target = (file: string, specifier: string) => path.join(path.dirname(file), specifier);

describe('runs/model/ is below the run store and the rest of runs/', () => {
  it('store/ imports of runs/ nothing but runs/model/', () => {
    const intoRuns = importsUnder('store')
      .map(([file, specifier]) => [file, target(file, specifier)])
      .filter(([, landing]) => landing!.startsWith('runs/'));
    expect(intoRuns.length).toBeGreaterThan(0);
    expect(intoRuns.filter(([, landing]) => !landing!.startsWith('runs/model/'))).toEqual([]);
  });

  it('runs/model/ imports nothing of runs/ or store/ outside itself', () => {
    const outward = importsUnder('runs/model')
      .map(([file, specifier]) => [file, target(file, specifier)])
      .filter(([, landing]) => /^(runs|store)\//.test(landing!) && !landing!.startsWith('runs/model/'));
    expect(outward).toEqual([]);
  });
});
