// A data folder that cannot be one, or cannot be written: the bins say which setting, which path and what is
// wrong, instead of a bare EEXIST, EACCES or "unable to open database file".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, requireBuiltBin, tempDir } from './helpers.js';

const JOURNEY_BIN = path.join(REPO_ROOT, 'packages', 'journey-continuity', 'bin', 'switchyard-journey.js');
/** As root every folder is writable: the unwritable cases run as `nobody` then. */
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65_534;

function start(bin: string, args: string[], env: Record<string, string>, asNobody = false) {
  return spawnSync(process.execPath, [bin, ...args], {
    env: cleanEnv(env),
    input: '',
    encoding: 'utf8',
    timeout: 30_000,
    ...(asNobody && AS_ROOT ? { uid: NOBODY, gid: NOBODY } : {}),
  });
}

/** The start-up error: the last line of stderr, with exit code 1. */
function startError(...run: Parameters<typeof start>): string {
  const result = start(...run);
  expect(result.status, result.stderr).toBe(1);
  return result.stderr.trimEnd().split('\n').at(-1) ?? '';
}

/**
 * Whether the unwritable case can run here: as root every folder is writable, so it runs as nobody, who must
 * then be able to run this Node and read the bins (not so in a clone inside a private temporary folder).
 */
function unwritableCaseRuns(): boolean {
  if (!AS_ROOT) return true;
  const probe = start(JOURNEY_BIN, ['--version'], {}, true);
  if (probe.status === 0) return true;
  console.warn(
    `data-dir.test.ts: skipping the unwritable folder case: nobody cannot run ${process.execPath}`,
  );
  return false;
}

/** A folder the bins (as nobody when this runs as root) may read but not write, in one they may enter. */
function readOnlyFolder(): string {
  const parent = tempDir('switchyard-data-dir-');
  fs.chmodSync(parent, 0o755);
  const folder = path.join(parent, 'read-only');
  fs.mkdirSync(folder, { mode: 0o555 });
  fs.chmodSync(folder, 0o555);
  return folder;
}

describe('a data folder the bins cannot use', () => {
  it('that is a file: the setting, the path and "not a folder"', () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    expect(startError(JOURNEY_BIN, [], { SWITCHYARD_DATA_DIR: file })).toBe(
      `switchyard-journey: SWITCHYARD_DATA_DIR: ${file} is a file, not a folder; ` +
        'set it to a folder this process can write (created if missing)',
    );
    const fromSwitchyard = `switchyard: --data-dir (SWITCHYARD_DATA_DIR): ${file} is a file, not a folder;`;
    expect(startError(requireBuiltBin(), ['--data-dir', file], {})).toContain(fromSwitchyard);
    expect(startError(requireBuiltBin(), [], { SWITCHYARD_DATA_DIR: file })).toContain(fromSwitchyard);
  });

  it.skipIf(process.platform === 'win32' || !unwritableCaseRuns())(
    'that cannot be created or written: the setting, the path and "not writable"',
    () => {
      const folder = readOnlyFolder();
      expect(startError(JOURNEY_BIN, [], { SWITCHYARD_DATA_DIR: path.join(folder, 'sub') }, true)).toBe(
        `switchyard-journey: SWITCHYARD_DATA_DIR: ${path.join(folder, 'sub')} cannot be created: this ` +
          'process may not write to the folder it would go in; set it to a folder this process can write ' +
          '(created if missing)',
      );
      expect(startError(requireBuiltBin(), ['--data-dir', folder], {}, true)).toBe(
        `switchyard: cannot open launch-runs: ${path.join(folder, 'launch-runs.sqlite')}: unable to open ` +
          `database file; the folder ${folder} is not writable by this process (set --data-dir ` +
          '(SWITCHYARD_DATA_DIR) to one that is)',
      );
    },
  );
});
