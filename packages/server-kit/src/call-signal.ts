/**
 * A tools/call's signal: aborted when its request is cancelled or shutdown stops waiting, whichever comes first.
 *
 * Why not `AbortSignal.any` for every call: it ties each call's signal to the server-lifetime shutdown signal by a
 * weak reference, which the garbage collector tracks and clears per call. A call answered before it could become a
 * task gets two plain listeners instead, removed when it has answered. A call that may become a task keeps
 * `AbortSignal.any`: its handler goes on using the signal after the answer, and only a weak tie lets that signal
 * go when the task is done.
 */
export interface CallSignal {
  signal: AbortSignal;
  /** The call has answered: its sources stop holding listeners for it. */
  release(): void;
}

const NOTHING_TO_RELEASE = (): void => undefined;

export function callSignal(request: AbortSignal, shutdown: AbortSignal, mayOutliveCall: boolean): CallSignal {
  if (mayOutliveCall) return { signal: AbortSignal.any([request, shutdown]), release: NOTHING_TO_RELEASE };
  const first = request.aborted ? request : shutdown.aborted ? shutdown : undefined;
  if (first !== undefined) return { signal: AbortSignal.abort(first.reason), release: NOTHING_TO_RELEASE };
  const controller = new AbortController();
  const abort = (event: Event): void => {
    release();
    controller.abort((event.target as AbortSignal).reason);
  };
  const release = (): void => {
    request.removeEventListener('abort', abort);
    shutdown.removeEventListener('abort', abort);
  };
  request.addEventListener('abort', abort);
  shutdown.addEventListener('abort', abort);
  return { signal: controller.signal, release };
}
