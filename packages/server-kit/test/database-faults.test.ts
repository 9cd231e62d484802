import { SwitchyardError } from '@switchyard/contracts/errors';
import { describe, expect, it } from 'vitest';
import {
  databaseErrorCode,
  isDatabaseUnreachable,
  replaceUnreachable,
  reportingUnreachable,
} from '../src/runtime/index.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** What drizzle throws: its own error, the driver's as `cause`. */
const wrapped = (cause: unknown) => new Error('Failed query: select 1\nparams: ', { cause });

describe('the classification of database failures', () => {
  it.each([
    ['a connection exception (class 08)', coded('08006')],
    ['too many connections', coded('53300')],
    ['the server shutting down', coded('57P01')],
    ['the server starting', coded('57P03')],
    ['a refused connection', coded('ECONNREFUSED')],
    ['a reset connection', coded('ECONNRESET')],
    ['an answer overdue', coded('ETIMEDOUT')],
    ['the socket ended', new Error('Connection terminated unexpectedly')],
    ['no connection within the timeout', new Error('timeout exceeded when trying to connect')],
    [
      'a query on a client whose connection failed',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
  ])('%s is unreachable, also inside drizzle’s wrapper', (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
    expect(isDatabaseUnreachable(wrapped(error))).toBe(true);
  });

  it.each([
    ['a statement timeout', coded('57014')],
    ['a program limit', coded('54000')],
    ['a unique violation', coded('23505')],
    ['a SQLite busy database', coded('SQLITE_BUSY')],
    ['anything else', new Error('boom')],
    ['not an error', 'text'],
  ])('%s is not', (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
    expect(isDatabaseUnreachable(wrapped(error))).toBe(false);
  });

  it('reads the code through wrappers, and stops at a cycle', () => {
    expect(databaseErrorCode(wrapped(coded('54000')))).toBe('54000');
    expect(databaseErrorCode(new Error('no code'))).toBeUndefined();
    const loop = new Error('loop') as Error & { cause?: unknown };
    loop.cause = loop;
    expect(databaseErrorCode(loop)).toBeUndefined();
    expect(isDatabaseUnreachable(loop)).toBe(false);
  });
});

describe('a store reporting an unreachable database in the domain’s words', () => {
  const unreachable = (cause: unknown) => new SwitchyardError('network-error', 'unreachable', { cause });

  it('replaces an unreachable failure of any method, and passes every other result and failure as it is', async () => {
    const answer = new SwitchyardError('not-found', 'no such thing', { cause: coded('ECONNRESET') });
    const store = reportingUnreachable(
      {
        size: 3,
        read: async (n: number) => n * 2,
        lose: async () => {
          throw wrapped(coded('ECONNRESET'));
        },
        fail: async () => {
          throw coded('23505');
        },
        answer: async () => {
          throw answer;
        },
        now: () => {
          throw new Error('Connection terminated unexpectedly');
        },
        // What drizzle's query builder is: a thenable, not a Promise.
        query: () => ({
          then: (_: unknown, reject: (error: unknown) => void) => reject(coded('ECONNREFUSED')),
        }),
      },
      unreachable,
    );
    expect(store.size).toBe(3);
    expect(await store.read(2)).toBe(4);
    await expect(store.lose()).rejects.toMatchObject({ kind: 'network-error', message: 'unreachable' });
    await expect(store.fail()).rejects.toMatchObject({ code: '23505' });
    await expect(store.answer()).rejects.toBe(answer);
    expect(() => store.now()).toThrow('unreachable');
    await expect(store.query()).rejects.toMatchObject({ kind: 'network-error' });
    expect(replaceUnreachable(coded('57P01'), unreachable)).toBeInstanceOf(SwitchyardError);
  });

  it('keeps the store’s own `this`', async () => {
    class Counter {
      private count = 0;
      async next() {
        this.count += 1;
        return this.count;
      }
    }
    const counter = reportingUnreachable(new Counter(), unreachable);
    expect(await counter.next()).toBe(1);
    expect(await counter.next()).toBe(2);
  });
});
