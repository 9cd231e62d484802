// Captured at import, before any test fakes timers: vi.waitFor advances fake clocks, this never does.
const realSetTimeout = globalThis.setTimeout;

/** Polls `check` on the real clock until it stops throwing (real I/O must happen while time is frozen). */
export async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const started = performance.now();
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (performance.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => realSetTimeout(resolve, 5));
    }
  }
}

/** Waits on the real clock (lets real I/O happen between fake-timer advances). */
export function realDelay(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}
