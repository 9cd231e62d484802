import type { ProgressReporter } from './tool-spec.js';

type ProgressToken = string | number;
interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: ProgressToken; progress: number; total?: number; message?: string };
}

/** The reporter of every request without a progress token: nothing to send, so one for all of them. */
const NO_PROGRESS: ProgressReporter = Object.freeze({ enabled: false, report: async () => {} });

/** Progress for one request: notifications go out only when the client sent a progress token. */
export function createProgressReporter(
  progressToken: unknown,
  notify: (notification: ProgressNotification) => Promise<void>,
): ProgressReporter {
  if (typeof progressToken !== 'string' && typeof progressToken !== 'number') {
    return NO_PROGRESS;
  }
  return {
    enabled: true,
    async report(progress, total, message) {
      try {
        await notify({
          method: 'notifications/progress',
          params: { progressToken, progress, total, message },
        });
      } catch {
        // The client may have gone away; progress is best effort and must not fail the call.
      }
    },
  };
}
