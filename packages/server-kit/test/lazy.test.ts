import { describe, expect, it } from 'vitest';
import { lazy } from '../src/runtime/index.js';

describe('lazy', () => {
  it('loads nothing until asked, then once: concurrent and later callers share the result', async () => {
    let loads = 0;
    const load = lazy(async () => {
      loads += 1;
      return { value: loads };
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect(await load()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let attempts = 0;
    const load = lazy(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('EMFILE: too many open files');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('EMFILE');
    expect(await load()).toBe('loaded');
    expect(await load()).toBe('loaded');
    expect(attempts).toBe(2);
  });

  it('turns a loader that throws synchronously into a rejection', async () => {
    const load = lazy<string>(() => {
      throw new Error('broken');
    });
    await expect(load()).rejects.toThrow('broken');
  });
});
