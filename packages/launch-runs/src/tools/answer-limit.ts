import type { AnswerPaging } from '@switchyard/server-kit';
import type { AnswerTruncation } from '@switchyard/contracts/launch-runs';

/** Where the whole of each list a launch answer may cut can be read. */
const READ_ALL = {
  'validation_report.issues': 'the whole report is the artifact validation_report.json',
  'status.open_issues': 'every issue is in the artifact validation_report.json',
} as const;

type CutList = keyof typeof READ_ALL;

/**
 * Paging for a launch answer whose issue list may pass the answer limit: the issues are cut at an item
 * boundary and `truncated` says how many were left out and that launch_get_artifact reads them all (in parts).
 */
export function issuesPaging(list: CutList): AnswerPaging<unknown, { truncated?: AnswerTruncation }> {
  return {
    lists: [list],
    rest: (cut) => {
      const omitted = cut.omitted[list] ?? 0;
      return {
        truncated: {
          omitted: { [list]: omitted },
          message:
            `${omitted} of ${list} left out: the answer passed the server's answer limit (${cut.limitBytes} ` +
            `bytes). ${READ_ALL[list]}: launch_get_artifact reads it, in parts (offset) when it is large.`,
        },
      };
    },
  };
}
