import pg from 'pg';

type Release = (error?: Error | boolean) => void;

/**
 * The error a query gets when its answer is overdue: ETIMEDOUT, as a network that stopped answering would
 * give, so that it reads as an unreachable database everywhere.
 */
function noAnswer(timeoutMs: number): Error {
  return Object.assign(
    new Error(
      `PostgreSQL did not answer within ${timeoutMs} ms (SWITCHYARD_DATABASE_QUERY_TIMEOUT_MS); the connection is closed`,
    ),
    { code: 'ETIMEDOUT' },
  );
}

/**
 * node-postgres' Client as a pool of ours holds it: a lost connection gives its slot back however its holder
 * behaves, and (with `answerTimeoutMs`) no answer is waited for forever.
 */
export class PooledClient extends pg.Client {
  /** The pool's release for the current checkout (pg-pool sets `release` at each one). */
  private poolRelease: Release | undefined;
  private readonly answerTimeoutMs: number | undefined;

  constructor(config: pg.ClientConfig & { answerTimeoutMs?: number } = {}) {
    super(config);
    this.answerTimeoutMs = config.answerTimeoutMs;
  }

  set release(release: Release) {
    this.poolRelease = release;
  }

  /** Gives the client back once per checkout; later calls do nothing (pg-pool's would throw). */
  get release(): Release {
    return (error) => {
      const release = this.poolRelease;
      this.poolRelease = undefined;
      release?.(error);
    };
  }

  /**
   * Hands a client whose connection failed back to the pool, which drops it, if it is checked out: drizzle's
   * transaction never releases its client when BEGIN fails (drizzle-orm#6241), and each such client would
   * hold a slot of the pool for good. Its holder's own release later does nothing.
   */
  releaseBroken(error: Error): void {
    this.release(error);
  }

  /**
   * With `answerTimeoutMs`, a query still unanswered that long after it was given to the client destroys the
   * connection, so that it and any query queued behind it fail and the pool drops the client. PostgreSQL's
   * statement timeout, which is shorter, cancels a slow statement first: only an answer that cannot arrive (a
   * stalled network, a frozen server) gets here. pg's own `query_timeout` fails the query but keeps the
   * connection, with the unanswered query still ahead of the next caller's.
   */
  // pg's query() has a dozen overloads (a promise, a callback, a submittable): one signature covers them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const timeoutMs = this.answerTimeoutMs;
    const last: unknown = args.at(-1);
    const first = args[0] as { submit?: unknown; callback?: unknown } | undefined;
    // A submittable (cursor, stream) or a callback in the config object: not used here, left unbounded.
    if (
      timeoutMs === undefined ||
      typeof first?.submit === 'function' ||
      typeof first?.callback === 'function'
    ) {
      return Reflect.apply(super.query, this, args);
    }
    const timer = setTimeout(() => this.connection.stream.destroy(noAnswer(timeoutMs)), timeoutMs);
    timer.unref();
    const answered = () => clearTimeout(timer);
    if (typeof last === 'function') {
      args[args.length - 1] = (...result: unknown[]) => {
        answered();
        return (last as (...result: unknown[]) => unknown)(...result);
      };
      return Reflect.apply(super.query, this, args);
    }
    const result = Reflect.apply(super.query, this, args) as Promise<unknown>;
    result.then(answered, answered);
    return result;
  }
}
