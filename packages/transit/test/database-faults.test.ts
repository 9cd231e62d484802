// PostgreSQL's connection failing under the saved-place tools (issue #34): cut mid-query, mid-transaction and
// mid-COMMIT by a real TCP proxy, stalled, and PostgreSQL restarted while calls are in flight. Each call
// answers or says the database is unreachable (`network-error`, retryable); nothing ends the process (an
// uncaught error would fail this file); the pool recovers by itself and ready() follows the database.
import { HslErrorPayloadSchema } from '@switchyard/contracts/transit';
import { contractErrorOf, type ToolAnswer } from '@switchyard/server-kit/testing';
import { startFaultyTestPostgres, untilTrue, type FaultyTestPostgres } from '@switchyard/test-postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

const UNREACHABLE = 'Saved places are unavailable: the database is unreachable';
const STOP = { type: 'stop', stopId: 'HSL:1040129', name: 'Arkadian puisto' };

let db: FaultyTestPostgres;
beforeAll(async () => {
  db = await startFaultyTestPostgres();
});
afterAll(async () => db?.stop());

let h: Harness | undefined;
afterEach(async () => {
  db.proxy.resume();
  await h?.close();
  h = undefined;
});

/** Saved places on a new database through the proxy (bounds: `serverEnv`). */
async function start(): Promise<Harness> {
  h = await startHarness({ env: await db.serverEnv('TRANSIT_DATABASE_URL') });
  return h;
}

function unreachable(answer: ToolAnswer, code = 'network-error') {
  expect(contractErrorOf(answer, HslErrorPayloadSchema)).toMatchObject({ code, message: UNREACHABLE });
}

/** Each answer of `answers`: a success, or `network-error` saying the database is unreachable. */
function expectServedOrUnreachable(answers: ToolAnswer[]): number {
  const failed = answers.filter((answer) => answer.isError);
  for (const answer of failed) unreachable(answer);
  return failed.length;
}

describe('saved places when the connection to PostgreSQL fails', () => {
  it('a cut mid-query, mid-transaction or mid-COMMIT answers network-error "database is unreachable"', async () => {
    const h = await start();
    expect((await h.call('save_user_variable', { key: 'work', value: STOP })).isError).toBe(false);
    const cases = [
      {
        cut: () => db.proxy.dropOnNextAnswer(),
        tool: 'get_user_variables',
        args: {},
      },
      {
        cut: () => db.proxy.dropAfterQuery('pg_advisory_xact_lock'),
        tool: 'save_user_variable',
        args: { key: 'cut while locked', value: STOP },
      },
      {
        cut: () => db.proxy.dropAfterCommit(),
        tool: 'save_user_variable',
        args: { key: 'cut as it ends', value: STOP },
      },
    ];
    for (const { cut, tool, args } of cases) {
      const cutDone = cut();
      unreachable(await h.call(tool, args));
      await cutDone;
      expect((await h.call('get_user_variables', {})).isError).toBe(false);
    }
    // A saved stop named by its label, as get_departures reads it: that contract's transport code.
    const cutDone = db.proxy.dropOnNextAnswer();
    unreachable(await h.call('get_departures', { stop: { type: 'label', value: 'work' } }), 'upstream-error');
    await cutDone;
    // The cut mid-transaction rolled back; the COMMIT that was cut had reached PostgreSQL and holds.
    const listed = await h.call('get_user_variables', {});
    const keys = (listed.structured as { variables: { key: string }[] }).variables.map((v) => v.key);
    expect(keys).toEqual(['cut as it ends', 'work']);
  });

  it('40 saves and lists in flight when every connection is cut: each is served or unreachable', async () => {
    const h = await start();
    const locked = db.proxy.dropAfterQuery('pg_advisory_xact_lock');
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? h.call('save_user_variable', { key: `place ${i}`, value: STOP })
        : h.call('get_user_variables', {}),
    );
    await locked;
    db.proxy.dropAll();
    expect(expectServedOrUnreachable(await Promise.all(calls))).toBeGreaterThan(0);
    expect((await h.call('save_user_variable', { key: 'after the cut', value: STOP })).isError).toBe(false);
    expect(await h.state.ready()).toBe(true);
  });

  it('a stalled connection answers unreachable after the query timeout; not ready meanwhile, ready after', async () => {
    const h = await start();
    expect((await h.call('get_user_variables', {})).isError).toBe(false);
    db.proxy.stall();
    unreachable(await h.call('save_user_variable', { key: 'stalled', value: STOP }));
    expect(await h.state.ready()).toBe(false);
    db.proxy.resume();
    await untilTrue(() => h.state.ready());
    expect((await h.call('save_user_variable', { key: 'after the stall', value: STOP })).isError).toBe(false);
  });

  it('PostgreSQL restarted under load: calls in flight and while it is down are unreachable; then served', async () => {
    const h = await start();
    expect((await h.call('save_user_variable', { key: 'before', value: STOP })).isError).toBe(false);
    // The calls reach the proxy and wait there while PostgreSQL stops: each is in flight at the restart.
    db.proxy.stall();
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? h.call('save_user_variable', { key: `in flight ${i}`, value: STOP })
        : h.call('get_user_variables', {}),
    );
    await db.halt();
    db.proxy.resume();
    try {
      expect(expectServedOrUnreachable(await Promise.all(inFlight))).toBeGreaterThan(0);
      expect(await h.state.ready()).toBe(false);
      unreachable(await h.call('get_user_variables', {}));
    } finally {
      await db.start();
    }
    await untilTrue(() => h.state.ready());
    expect((await h.call('get_user_variables', { key: 'before' })).isError).toBe(false);
  });
});
