import { describe, expect, it } from 'vitest';
import { domainOfTaskId, mintTaskId, PollPace, resolveTaskSettings } from '../src/task-wire.js';

describe('task ids', () => {
  it('name their domain and are not repeated', () => {
    const ids = new Set(Array.from({ length: 100 }, () => mintTaskId('launch')));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(domainOfTaskId(id)).toBe('launch');
    expect(domainOfTaskId('nodot')).toBeUndefined();
    expect(domainOfTaskId('.leading')).toBeUndefined();
  });
});

describe('the poll pace', () => {
  it('forgets the least recently polled pair past its cap (a forgotten pair polls at once)', async () => {
    // An hour's interval: a wait that was not forgotten would outlast the test's timeout.
    const pace = new PollPace(3_600_000, 2);
    const signal = new AbortController().signal;
    await pace.wait('alice', 'a', signal);
    await pace.wait('alice', 'b', signal);
    await pace.wait('alice', 'c', signal);
    await pace.wait('alice', 'a', signal);
  });

  it('gives up waiting when the request is cancelled', async () => {
    const pace = new PollPace(3_600_000);
    const controller = new AbortController();
    await pace.wait('alice', 'a', controller.signal);
    const second = pace.wait('alice', 'a', controller.signal);
    controller.abort();
    await expect(second).rejects.toThrow(/abort/i);
  });
});

describe('task settings', () => {
  it('read the environment and refuse a TTL that is not positive', () => {
    expect(resolveTaskSettings({}, {})).toEqual({
      ttlMs: 86_400_000,
      pollIntervalMs: 1_000,
      afterMs: 2_000,
      listenMaxIds: 32,
      listensMax: 256,
    });
    expect(resolveTaskSettings({}, { SWITCHYARD_TASK_LISTENS_MAX: '2' }).listensMax).toBe(2);
    expect(() => resolveTaskSettings({}, { SWITCHYARD_TASK_LISTEN_MAX_IDS: '0' })).toThrow(
      /SWITCHYARD_TASK_LISTEN_MAX_IDS/,
    );
    expect(resolveTaskSettings({}, { SWITCHYARD_TASK_POLL_INTERVAL_MS: '300' }).pollIntervalMs).toBe(300);
    expect(() => resolveTaskSettings({}, { SWITCHYARD_TASK_TTL_MS: '0' })).toThrow(/SWITCHYARD_TASK_TTL_MS/);
  });
});
