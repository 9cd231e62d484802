import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallLimiter } from '../src/index.js';
import { rejection } from './helpers/rejection.js';

describe('createCallLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rejects call N+1 in the same window at once, with retryAfterMs, and allows again after the window', async () => {
    const limiter = createCallLimiter({ name: 'planJourney', points: 5, durationMs: 1000 });
    for (let call = 0; call < 5; call += 1) await expect(limiter.consume()).resolves.toBeUndefined();

    await vi.advanceTimersByTimeAsync(600);
    const error = await rejection(limiter.consume());
    expect(error.kind).toBe('rate-limited');
    expect(error.retryAfterMs).toBe(400);
    expect(error.message).toBe('planJourney is limited to 5 calls per second; retry after 0.4 s');

    await vi.advanceTimersByTimeAsync(399);
    expect((await rejection(limiter.consume())).retryAfterMs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(limiter.consume()).resolves.toBeUndefined();
  });

  it('keeps a separate allowance per key', async () => {
    const limiter = createCallLimiter({ name: 'get_departures', points: 1, durationMs: 60_000 });
    await limiter.consume('alice');
    await expect(limiter.consume('bob')).resolves.toBeUndefined();
    const error = await rejection(limiter.consume('alice'));
    expect(error.message).toBe('get_departures is limited to 1 call per minute; retry after 60 s');
    expect(error.retryAfterMs).toBe(60_000);
  });

  it('names other windows plainly', async () => {
    const limiter = createCallLimiter({ name: 'plan_trip', points: 2, durationMs: 2500 });
    await limiter.consume();
    await limiter.consume();
    expect((await rejection(limiter.consume())).message).toBe(
      'plan_trip is limited to 2 calls per 2500 ms; retry after 2.5 s',
    );
  });

  it('rejects impossible limits with a message naming the option', () => {
    expect(() => createCallLimiter({ name: 'x', points: 0, durationMs: 1000 })).toThrow(/points/);
    expect(() => createCallLimiter({ name: 'x', points: 1, durationMs: 0 })).toThrow(/durationMs/);
  });
});
