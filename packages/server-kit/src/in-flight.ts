/**
 * Counts work that shutdown must wait for (HTTP requests on /mcp, stdio requests) and tells when it has
 * drained, so a graceful close can let in-flight tool calls finish before transports are torn down.
 */
export class InFlightTracker {
  private active = 0;
  private waiters: (() => void)[] = [];

  get count(): number {
    return this.active;
  }

  /** Marks one unit of work as started; the returned function ends it (calling it again is a no-op). */
  begin(): () => void {
    this.active += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active -= 1;
      if (this.active === 0) this.notifyIdle();
    };
  }

  /** Resolves `true` once nothing is in flight, or `false` when `timeoutMs` passes first. */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.active === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== onIdle);
        resolve(false);
      }, timeoutMs);
      const onIdle = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(onIdle);
    });
  }

  private notifyIdle(): void {
    // Idle after every call when calls come one at a time: nothing to swap out unless someone waits.
    if (this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
