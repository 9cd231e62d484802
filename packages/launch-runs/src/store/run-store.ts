import type { RunState, ValidationReport } from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../db/schema.js';
import type { ArtifactEntry, RunChange, RunPatch } from './launch-store.js';
import {
  artifactRecorded,
  cancelled,
  changed,
  changedIf,
  rewound,
  transitioned,
  validationRecorded,
  type Decide,
} from './run-writes.js';

/**
 * LaunchStore's changes of a run, written once over a dialect's `append`: in one transaction, lock the run's
 * row (refused unless it exists and, with a token, is leased to it), decide, write, append the events.
 */
export abstract class RunStore {
  /** What `decide` answers for the locked row, written: the row after it (undefined when it answers nothing). */
  abstract append(runId: string, token: string | null, decide: Decide): Promise<RunRow | undefined>;

  private async appendOrRow(runId: string, token: string | null, decide: Decide): Promise<RunRow> {
    return (await this.append(runId, token, decide))!;
  }

  transition(
    runId: string,
    from: RunState,
    to: RunState,
    options: { token?: string; patch?: RunPatch; payload?: Record<string, unknown> } = {},
  ): Promise<RunRow> {
    return this.appendOrRow(runId, options.token ?? null, transitioned(from, to, options));
  }

  update(runId: string, change: RunChange, options: { token?: string } = {}): Promise<RunRow> {
    return this.appendOrRow(runId, options.token ?? null, changed(change));
  }

  updateIf(runId: string, decide: (row: RunRow) => RunChange | undefined): Promise<RunRow | undefined> {
    return this.append(runId, null, changedIf(decide));
  }

  rewind(runId: string, token: string, from: RunState, to: RunState): Promise<RunRow> {
    return this.appendOrRow(runId, token, rewound(from, to));
  }

  cancel(runId: string, refuse: (row: RunRow) => Error | undefined): Promise<RunRow> {
    return this.appendOrRow(runId, null, cancelled(refuse));
  }

  recordValidation(
    runId: string,
    token: string,
    report: ValidationReport,
    payload: Record<string, unknown>,
  ): Promise<RunRow> {
    return this.appendOrRow(runId, token, validationRecorded(report, payload));
  }

  async recordArtifact(entry: ArtifactEntry, token: string, bytes: Uint8Array): Promise<void> {
    await this.append(entry.runId, token, artifactRecorded(entry, bytes));
  }
}
