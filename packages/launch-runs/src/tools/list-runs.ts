import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  LaunchListRunsInputSchema,
  LaunchListRunsOutputSchema,
  RunIdSchema,
  type RunSummary,
} from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../db/schema.js';
import { runState } from '../store/launch-store.js';
import { launchTool } from './spec.js';

export interface ListRunsPage {
  runs: RunSummary[];
  next_cursor: string | null;
}

/** The page's last run as the opaque next_cursor: its place in the (created_ms, run_id) order. */
function encodeCursor(row: RunRow): string {
  return Buffer.from(JSON.stringify([row.createdMs, row.runId]), 'utf8').toString('base64url');
}

/**
 * The place a next_cursor names. A caller may send any text: only what encodeCursor writes is read (a time
 * a bigint column holds, a run id as the contract spells them), so a forged one never reaches the query.
 */
function decodeCursor(cursor: string): { createdMs: number; runId: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      (value[0] as number) >= 0 &&
      RunIdSchema.safeParse(value[1]).success
    ) {
      return { createdMs: value[0] as number, runId: value[1] as string };
    }
  } catch {
    // fall through to the validation error
  }
  throw new SwitchyardError('validation', 'cursor is not a next_cursor returned by launch_list_runs', {
    code: 'INVALID_INPUT',
    details: { reason: 'invalid_cursor' },
  });
}

function summarize(row: RunRow): RunSummary {
  return {
    run_id: row.runId,
    product_slug: row.productSlug,
    state: runState(row),
    started_at: row.createdAt,
    finished_at: row.finishedAt,
  };
}

export const listRunsTool = launchTool({
  name: 'launch_list_runs',
  title: 'List launch runs',
  description:
    'Lists runs newest first, optionally filtered by product_slug and/or state, 50 per page; pass next_cursor ' +
    'as cursor for the next page.',
  input: LaunchListRunsInputSchema,
  output: LaunchListRunsOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  // limit is the schema's: 1..50, 50 by default.
  handler: async ({ filter, cursor, limit }, call) => {
    const rows = await call.state.runs.recentRuns(call.principal, {
      productSlug: filter?.product_slug,
      state: filter?.state,
      before: cursor === undefined ? undefined : decodeCursor(cursor),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const next_cursor = rows.length > limit && last !== undefined ? encodeCursor(last) : null;
    return { ok: true as const, runs: page.map(summarize), next_cursor } satisfies ListRunsPage & {
      ok: true;
    };
  },
});
