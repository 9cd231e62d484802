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

  it('names the variable and the path when the path cannot be a folder', () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    expect(() => resolveDataDir({ SWITCHYARD_DATA_DIR: file })).toThrow(
      `SWITCHYARD_DATA_DIR: ${file} is a file, not a folder; set it to a folder this process can write`,
    );
    expect(() => resolveDataDir({ SWITCHYARD_DATA_DIR: path.join(file, 'data') })).toThrow(
      `SWITCHYARD_DATA_DIR: ${path.join(file, 'data')} cannot be a folder: part of its path is a file`,
    );
  });

  it.runIf(process.platform === 'linux')('says the default was used when the variable is unset', () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    vi.stubEnv('XDG_DATA_HOME', file);
    expect(() => resolveDataDir({})).toThrow(
      `SWITCHYARD_DATA_DIR: unset, so the platform's data folder is used, and ${path.join(file, 'switchyard')} ` +
        'cannot be a folder: part of its path is a file; set SWITCHYARD_DATA_DIR to a folder this process can write',
    );
  });
});
