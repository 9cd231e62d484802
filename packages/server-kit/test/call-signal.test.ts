import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { callSignal } from '../src/call-signal.js';

const listenersOn = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

describe('callSignal', () => {
  it.each(['request', 'shutdown'] as const)('aborts with the reason of the %s signal, once', (which) => {
    const request = new AbortController();
    const shutdown = new AbortController();
    const { signal } = callSignal(request.signal, shutdown.signal, false);
    (which === 'request' ? request : shutdown).abort(`${which} ended`);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(`${which} ended`);
    // The first source to abort detached it from both.
    expect(listenersOn(request.signal) + listenersOn(shutdown.signal)).toBe(0);
  });

  it('starts aborted when a source already is', () => {
    const shutdown = new AbortController();
    shutdown.abort('stopping');
    const { signal } = callSignal(new AbortController().signal, shutdown.signal, false);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stopping');
  });

  it('leaves no listener on the server-lifetime signal once the call has answered', () => {
    const shutdown = new AbortController();
    for (let call = 0; call < 100; call += 1) {
      const request = new AbortController();
      const { release } = callSignal(request.signal, shutdown.signal, false);
      release();
      expect(listenersOn(request.signal)).toBe(0);
    }
    expect(listenersOn(shutdown.signal)).toBe(0);
    shutdown.abort();
  });

  it('keeps a call that may become a task tied to shutdown after it answered, without a listener', () => {
    const shutdown = new AbortController();
    const { signal, release } = callSignal(new AbortController().signal, shutdown.signal, true);
    release();
    expect(listenersOn(shutdown.signal)).toBe(0);
    shutdown.abort('stopping');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stopping');
  });
});
