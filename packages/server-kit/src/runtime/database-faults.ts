// What a failed database call means, read from the driver's error: the one classification every domain on
// PostgreSQL shares. No driver import here: domain code on SQLite loads this too.
import { SwitchyardError } from '@switchyard/contracts/errors';

/**
 * Codes that mean the database could not be reached or the connection to it was lost: PostgreSQL's
 * connection exceptions (class 08), too many connections, the server shutting down or starting, and the
 * system's network errors (node-postgres passes them on as they are).
 */
const UNREACHABLE_CODES = new Set([
  '53300', // too many connections
  '57P01', // the server is shutting down (admin shutdown)
  '57P02', // crash shutdown
  '57P03', // the server is starting
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNREACHABLE_CLASS = '08';

/**
 * node-postgres' own words for a lost connection, which it throws without a code: the socket ended, the pool
 * could not connect in time, and a query on a client whose connection failed (drizzle's ROLLBACK after a
 * lost connection fails with this, and it replaces the first error).
 */
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|encountered a connection error and is not queryable/i;

/** The errors of `error`'s cause chain, outermost first (drizzle wraps the driver's error as `cause`). */
function* causeChain(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let link = error; link !== undefined && link !== null && !seen.has(link);) {
    seen.add(link);
    yield link;
    link = (link as { cause?: unknown }).cause;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/** The first code along `error`'s cause chain (a SQLSTATE, a SQLite or a system code), if any. */
export function databaseErrorCode(error: unknown): string | undefined {
  for (const link of causeChain(error)) {
    const code = codeOf(link);
    if (code !== undefined) return code;
  }
  return undefined;
}

/**
 * Whether `error` says the database could not be reached, or the connection to it was dropped, reset or
 * stalled (mid-query, mid-transaction, mid-COMMIT): a failure worth retrying once the database is back.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (const link of causeChain(error)) {
    const code = codeOf(link);
    if (code !== undefined && (UNREACHABLE_CODES.has(code) || code.startsWith(UNREACHABLE_CLASS)))
      return true;
    if (link instanceof Error && UNREACHABLE_MESSAGES.test(link.message)) return true;
  }
  return false;
}

/**
 * `error`, or the domain's own error for it (`unreachable(error)`) when it means the database is unreachable.
 * A SwitchyardError is already an answer and passes as it is.
 */
export function replaceUnreachable(error: unknown, unreachable: (cause: unknown) => Error): unknown {
  return !(error instanceof SwitchyardError) && isDatabaseUnreachable(error) ? unreachable(error) : error;
}

/**
 * Every method of `store`, its failures through `replaceUnreachable`: for a store over a PostgreSQL pool, so
 * that each of its methods answers a lost database the same way.
 */
export function reportingUnreachable<Store extends object>(
  store: Store,
  unreachable: (cause: unknown) => Error,
): Store {
  const convert = (error: unknown): never => {
    throw replaceUnreachable(error, unreachable);
  };
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const result: unknown = value.apply(target, args);
          // A method may return drizzle's query builder as it is: a thenable, not a Promise.
          const thenable = typeof (result as PromiseLike<unknown> | null)?.then === 'function';
          return thenable ? Promise.resolve(result).catch(convert) : result;
        } catch (error) {
          return convert(error);
        }
      };
    },
  });
}
