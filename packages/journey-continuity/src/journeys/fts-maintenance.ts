import type Database from 'better-sqlite3';

/** When and how much the full-text tables are merged (JourneyConfig's ftsMergeAfterMs, ftsMergePages). */
export interface FtsMaintenanceOptions {
  /** How long after a write to a full-text table its merge starts, and between its steps; 0: never. */
  afterMs: number;
  /** Most pages one merge step writes (FTS5's 'merge' command); a larger merge goes on at the next step. */
  pages: number;
}

/**
 * Keeps the full-text tables in one segment each while they are read. FTS5 writes each transaction's rows as
 * a new segment and its automerge only folds segments of one level together, so a table written one session
 * at a time holds several segments, and every query walks each of its terms in all of them (a ranked search
 * of a 450-session shard took 1.25 times as long; with the table in one segment FTS5 reads each term's list
 * directly). After a write, the written table is due: `afterMs` later, and then every `afterMs` while work
 * is left, one table gets one step of FTS5's 'merge' with a negative page count (the incremental form of
 * 'optimize', every segment into one) writing at most `pages` pages, between calls, in its own transaction.
 * A step never waits for another process's lock (busy timeout 0 while it runs): a busy table stays due.
 * Writes in a burst share one merge. Due tables are per process: each process merges after its own writes.
 */
export class FtsMaintenance {
  /** Tables written since their last merge finished, the oldest first. */
  private readonly due = new Set<string>();
  private readonly merges = new Map<string, Database.Statement<[number]>>();
  private readonly totalChanges;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly options: FtsMaintenanceOptions,
  ) {
    this.totalChanges = sqlite.prepare<[], number>('SELECT total_changes()').pluck();
  }

  /** `table`'s rows were written: it is merged once writes pause. */
  wrote(table: string): void {
    if (this.options.afterMs === 0) return;
    this.due.add(table);
    this.schedule();
  }

  /** Whether a merge is left to do (tests wait for none). */
  get pending(): boolean {
    return this.due.size > 0;
  }

  /**
   * One bounded merge step of the oldest due table, which stays due while the step found work (FTS5's test:
   * a step that merged nothing changed fewer than two rows, the command's own).
   */
  step(): void {
    const [table] = this.due;
    if (table === undefined) return;
    this.due.delete(table);
    const busyTimeout = this.sqlite.pragma('busy_timeout', { simple: true }) as number;
    this.sqlite.pragma('busy_timeout = 0');
    try {
      const before = this.totalChanges.get() ?? 0;
      this.mergeOf(table).run(-this.options.pages);
      if ((this.totalChanges.get() ?? 0) - before >= 2) this.due.add(table);
    } catch (error) {
      // Another process holds the write lock: try again at the next step. Any other failure is the next
      // write's to report; this table is merged again after it.
      if ((error as { code?: string }).code === 'SQLITE_BUSY') this.due.add(table);
    } finally {
      this.sqlite.pragma(`busy_timeout = ${busyTimeout}`);
    }
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due.clear();
  }

  private schedule(): void {
    if (this.timer !== undefined || !this.sqlite.open) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.sqlite.open) return;
      this.step();
      if (this.due.size > 0) this.schedule();
    }, this.options.afterMs);
    // A pending merge never keeps the process alive.
    this.timer.unref();
  }

  private mergeOf(table: string): Database.Statement<[number]> {
    let merge = this.merges.get(table);
    if (merge === undefined) {
      merge = this.sqlite.prepare<[number]>(`INSERT INTO ${table}(${table}, rank) VALUES ('merge', ?)`);
      this.merges.set(table, merge);
    }
    return merge;
  }
}
