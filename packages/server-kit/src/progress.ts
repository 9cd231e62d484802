import type { ToolExtra } from './principal.js';

export interface ProgressReporter {
  /** True when the client asked for progress (sent a progress token). */
  readonly enabled: boolean;
  /** Sends `notifications/progress`; a no-op when the client sent no token. Never throws. */
  report(progress: number, total?: number, message?: string): Promise<void>;
}

/** Progress for one request: notifications go out only when the client sent a progress token. */
export function createProgressReporter(
  extra: Pick<ToolExtra, '_meta' | 'sendNotification'>,
): ProgressReporter {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) {
    return { enabled: false, report: async () => {} };
  }
  return {
    enabled: true,
    async report(progress, total, message) {
      try {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress,
            ...(total === undefined ? {} : { total }),
            ...(message === undefined ? {} : { message }),
          },
        });
      } catch {
        // The client may have gone away; progress is best effort and must not fail the call.
      }
    },
  };
}
