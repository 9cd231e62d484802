// A client config's `"command": "node"` may find a Node older than the floor (22.19): below 22 better-sqlite3
// kills the process with a segmentation fault and no message, below 22.19 undici 8 is not supported. Every bin
// must say which Node it needs and exit 1 instead.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MINIMUM_NODE_VERSION, nodeVersionSupported } from '@switchyard/server-kit/node-version';
import { describe, expect, it } from 'vitest';
import { cleanEnv, DUMMY_KEYS, REPO_ROOT, requireBuiltBin, tempDir } from './helpers.js';

const BINS = {
  switchyard: () => requireBuiltBin(),
  'switchyard-transit': () => path.join(REPO_ROOT, 'packages', 'transit', 'bin', 'switchyard-transit.js'),
  'switchyard-journey': () =>
    path.join(REPO_ROOT, 'packages', 'journey-continuity', 'bin', 'switchyard-journey.js'),
  'switchyard-launch': () => path.join(REPO_ROOT, 'packages', 'launch-runs', 'bin', 'switchyard-launch.js'),
};

/** The first `node` on PATH older than the servers support, and its version (`v20.20.2`). */
function olderNodeOnPath(): { node: string; version: string } | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const node = path.join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    if (dir === '' || !fs.existsSync(node)) continue;
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (!nodeVersionSupported(version)) return { node, version };
  }
  return undefined;
}

const older = olderNodeOnPath();

describe(`the bins on a Node older than ${MINIMUM_NODE_VERSION}`, () => {
  it.for(Object.entries(BINS))('%s says which Node it needs and exits 1', ([name, binPath], context) => {
    if (older === undefined) {
      const reason = `no node older than ${MINIMUM_NODE_VERSION} on PATH: this check needs one`;
      console.warn(`skipped: ${reason}`);
      return context.skip(reason);
    }
    const result = spawnSync(older.node, [binPath()], {
      env: cleanEnv({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: tempDir('switchyard-old-node-') }),
      input: '',
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ status: result.status, signal: result.signal, stderr: result.stderr }).toEqual({
      status: 1,
      signal: null,
      stderr: `${name} needs Node.js ${MINIMUM_NODE_VERSION} or later; ${older.node} is ${older.version}\n`,
    });
  });
});
