import type { RunRow } from '../db/schema.js';
import type { Decide, LaunchStore } from '../store/launch-store.js';
import { holdHere, newLeaseToken, retireLeaseToken, type HeldHere } from './model/lease.js';

/** Why an execution was aborted. */
type AbortReason = 'cancelled' | 'shutdown' | 'lease-lost' | 'request-cancelled';

/** What may stop an executor's work besides the run being taken from it. */
export type LeaseSignals = { shutdown?: AbortSignal; request?: AbortSignal };

/**
 * One executor's hold on one run, registered with its token (model/lease.ts) until released, whatever its
 * run has become: work aborted by a cancel from elsewhere may still be stopping in the run's workspace
 * (ended-workspace.ts leaves it alone). The lease row is renewed while the work runs, and the lease's signal
 * aborts when the run is cancelled (here or by another process), the lease is lost, the server shuts down
 * (the run is left interrupted, to be resumed) or the calling request is cancelled (its client disconnected,
 * timed out or cancelled it, here or, over stateless HTTP, through another process: the store marks the
 * lease, LaunchStore.cancelRequest). The watcher polls a single indexed row, a few times per second, so a
 * cancel from another process stops the work well within a second.
 */
export class Lease implements HeldHere {
  /** Aborted when the run is taken from this executor (cancelled, lease lost), with that AbortReason. */
  private readonly taken = new AbortController();
  /** Aborted when the calling request's cancel reached the run through the store. */
  private readonly requestCancelled = new AbortController();
  /**
   * Work past its commit point watches this instead of `signal`, so a request that goes away cannot leave
   * it half done.
   */
  readonly takenSignal: AbortSignal = this.taken.signal;
  private readonly timer: NodeJS.Timeout;
  private lastRenewMs: number;
  /** Until the work under the lease is done and it is being let go (release). */
  working = true;
  private released = false;
  /** A check is under way (a database round trip may outlast a tick). */
  private ticking = false;
  readonly signal: AbortSignal;

  private constructor(
    private readonly store: LaunchStore,
    readonly runId: string,
    readonly token: string,
    private readonly leaseMs: number,
    private readonly external: LeaseSignals,
  ) {
    const outside = [external.shutdown, external.request].filter((signal) => signal !== undefined);
    this.signal = AbortSignal.any([this.taken.signal, this.requestCancelled.signal, ...outside]);
    this.lastRenewMs = Date.now();
    const tickMs = Math.max(50, Math.min(250, Math.floor(leaseMs / 4)));
    this.timer = setInterval(() => void this.watch(), tickMs);
    this.timer.unref();
    holdHere(token, this);
  }

  /**
   * A lease under a new token, registered here while `take` writes it (an insert, a claim, an acquire) so the
   * run never reads as abandoned by this process: this executor's when the run `take` answers names the token;
   * otherwise the token is retired and the run answered as `busy` (undefined: no run).
   */
  static async take<Answer extends RunRow | undefined>(
    store: LaunchStore,
    leaseMs: number,
    signals: LeaseSignals,
    take: (token: string) => Promise<Answer>,
  ): Promise<{ lease: Lease; row: RunRow } | { busy: Answer }> {
    const token = newLeaseToken();
    const row = await take(token).catch((error: unknown) => {
      retireLeaseToken(token);
      throw error;
    });
    if (row === undefined || row.leaseOwner !== token) {
      retireLeaseToken(token);
      return { busy: row };
    }
    return { lease: new Lease(store, row.runId, token, leaseMs, signals), row };
  }

  /**
   * Why the work was aborted. Decided by which signal fired, never by a reason string a client could
   * choose (a request's abort reason comes from its client's cancel notification).
   */
  get abortReason(): AbortReason | undefined {
    if (!this.signal.aborted) return undefined;
    if (this.taken.signal.aborted) return this.taken.signal.reason as AbortReason;
    return this.external.shutdown?.aborted === true ? 'shutdown' : 'request-cancelled';
  }

  abort(reason: 'cancelled' | 'lease-lost'): void {
    if (!this.taken.signal.aborted) this.taken.abort(reason);
  }

  private async watch(): Promise<void> {
    if (this.released || this.ticking) return;
    this.ticking = true;
    try {
      // A renewal answers what the status check would: whether the run is still this executor's.
      const renewing = Date.now() - this.lastRenewMs >= this.leaseMs / 3;
      const status = renewing
        ? await this.store.renewLease(this.runId, this.token, this.leaseMs)
        : await this.store.leaseStatus(this.runId, this.token);
      if (this.released) return;
      if (status === 'cancelled') return this.abort('cancelled');
      if (status === 'lost') return this.abort('lease-lost');
      if (status === 'request-cancelled') this.requestCancelled.abort();
      if (renewing) this.lastRenewMs = Date.now();
    } catch {
      // The database may be closing (shutdown) or briefly unreachable; the next tick or the release settles it.
    } finally {
      this.ticking = false;
    }
  }

  /** A change under this lease (LeaseLostError once it is lost): the run after it (store/run-writes.ts). */
  append(decide: Decide): Promise<RunRow> {
    return this.store.append(this.runId, this.token, decide);
  }

  /**
   * Frees the run for the next executor once `lastly` (the work's clean-up, still under the lease, no longer
   * working) is done. Safe to call twice.
   */
  async release(lastly?: () => Promise<void>): Promise<void> {
    if (!this.working) return;
    this.working = false;
    try {
      await lastly?.();
    } finally {
      this.released = true;
      clearInterval(this.timer);
      try {
        await this.store.releaseLease(this.runId, this.token);
      } finally {
        retireLeaseToken(this.token);
      }
    }
  }
}
