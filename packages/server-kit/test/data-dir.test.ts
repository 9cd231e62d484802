import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveDataDir } from '../src/runtime/index.js';
import { tempDir } from './helpers.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('resolveDataDir', () => {
  it('honours SWITCHYARD_DATA_DIR and creates the directory', () => {
    const dir = path.join(tempDir(), 'not', 'yet', 'there');
    expect(resolveDataDir({ SWITCHYARD_DATA_DIR: dir })).toBe(dir);
    expect(fs.statSync(dir).isDirectory()).toBe(true);
  });

  it('reads process.env by default and resolves a relative path against the working directory', () => {
    const base = tempDir();
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(base);
    try {
      vi.stubEnv('SWITCHYARD_DATA_DIR', ' relative/data ');
      expect(resolveDataDir()).toBe(path.join(base, 'relative', 'data'));
    } finally {
      cwd.mockRestore();
    }
  });

  it.runIf(process.platform === 'linux')(
    'falls back to the platform data directory when unset or blank',
    () => {
      const xdg = tempDir();
      vi.stubEnv('XDG_DATA_HOME', xdg);
      expect(resolveDataDir({ SWITCHYARD_DATA_DIR: '   ' })).toBe(path.join(xdg, 'switchyard'));
      expect(resolveDataDir({})).toBe(path.join(xdg, 'switchyard'));
      expect(fs.statSync(path.join(xdg, 'switchyard')).isDirectory()).toBe(true);
    },
  );
});
