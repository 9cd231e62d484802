import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * One row per run. `state`, `section_states` and the event log change together in one transaction
 * (see store/launch-store.ts). The lease columns name the one executor allowed to work on the run.
 */
export const runs = sqliteTable(
  'runs',
  {
    runId: text('run_id').primaryKey(),
    /**
     * The principal that started the run (server-kit's callerPrincipal); only it sees the run. Rows from
     * before owners were recorded ('') are the local principal's (claimed on open).
     */
    owner: text('owner').notNull().default(''),
    productSlug: text('product_slug').notNull(),
    /** Canonical JSON of the validated run_config (defaults applied). */
    config: text('config').notNull(),
    /** sha256 of `config`: idempotency compares it. */
    configHash: text('config_hash').notNull(),
    /**
     * Unique per owner: the database, not JavaScript, decides which of two concurrent starts wins; another
     * principal's key is another key.
     */
    idempotencyKey: text('idempotency_key'),
    state: text('state').notNull(),
    /** The last stable state the run reached (resume point), null before PLAN_READY. */
    lastStableState: text('last_stable_state'),
    /** JSON object: section → section state. */
    sectionStates: text('section_states').notNull(),
    fixAttempts: integer('fix_attempts').notNull().default(0),
    /** ok of the latest validation report; null while there is none. */
    lastReportOk: integer('last_report_ok', { mode: 'boolean' }),
    /** The worker executing right now (W1..W9), null between workers. */
    activeWorker: text('active_worker'),
    /** JSON `{ code, message, retryable, details }` of the failure that stopped the run, if any. */
    lastError: text('last_error'),
    /** Set when a startup found the run abandoned by a dead process; cleared by resume. */
    interruptedAt: text('interrupted_at'),
    sourceSha: text('source_sha'),
    siteSha: text('site_sha'),
    prUrl: text('pr_url'),
    branch: text('branch'),
    commitSha: text('commit_sha'),
    createdAt: text('created_at').notNull(),
    /** Milliseconds since the epoch: ordering and list cursors. */
    createdMs: integer('created_ms').notNull(),
    updatedAt: text('updated_at').notNull(),
    finishedAt: text('finished_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresMs: integer('lease_expires_ms'),
    /**
     * The tool call holding the lease (its JSON-RPC id as JSON text), for a cancel relayed by whichever
     * process its client's `notifications/cancelled` reached; null for background work.
     */
    leaseRequest: text('lease_request'),
    /** That call's client cancelled it: its executor stops as it would for a cancel that reached it. */
    leaseRequestCancelled: integer('lease_request_cancelled', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [
    uniqueIndex('runs_owner_idempotency_key_unique').on(table.owner, table.idempotencyKey),
    index('runs_created_idx').on(table.createdMs, table.runId),
    index('runs_owner_created_idx').on(table.owner, table.createdMs, table.runId),
    index('runs_product_created_idx').on(table.productSlug, table.createdMs),
    index('runs_state_created_idx').on(table.state, table.createdMs),
    // An owner's active runs (store/active-runs.ts), counted by every start and every validation of a DONE
    // run: its unfinished states and its leased DONE runs are seeks, never a walk over all its runs.
    index('runs_owner_state_idx').on(table.owner, table.state, table.leaseExpiresMs),
  ],
);

/** Append-only, hash-chained per run: event_hash = sha256(prev_hash + canonical event). */
export const events = sqliteTable(
  'events',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    eventId: text('event_id').notNull(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.runId),
    /** 1, 2, 3, ... per run; unique, so two writers can never both append event n. */
    runSeq: integer('run_seq').notNull(),
    ts: text('ts').notNull(),
    type: text('type').notNull(),
    /** Canonical JSON. */
    payload: text('payload').notNull(),
    traceId: text('trace_id'),
    spanId: text('span_id'),
    prevHash: text('prev_hash').notNull(),
    eventHash: text('event_hash').notNull(),
  },
  (table) => [
    uniqueIndex('events_event_id_unique').on(table.eventId),
    uniqueIndex('events_run_seq_unique').on(table.runId, table.runSeq),
    // A task's status reads a run's newest event of a type (LaunchStore.lastEvent) on every poll: a seek,
    // not a walk back through the run's log.
    index('events_run_type_seq_idx').on(table.runId, table.type, table.runSeq),
  ],
);

/** The artifact index; the bytes live under <dataDir>/launch-runs/runs/<run_id>/artifacts/<path>. */
export const artifacts = sqliteTable(
  'artifacts',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.runId),
    name: text('name').notNull(),
    /** Relative to the run's artifacts folder (equal to the validated name). */
    path: text('path').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    worker: text('worker').notNull(),
    writtenAt: text('written_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.name] })],
);

/** The issues of the latest validation report of each run, in report order. */
export const issues = sqliteTable(
  'issues',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.runId),
    ord: integer('ord').notNull(),
    issueId: text('issue_id').notNull(),
    gate: text('gate').notNull(),
    severity: text('severity').notNull(),
    errorCode: text('error_code').notNull(),
    message: text('message').notNull(),
    path: text('path').notNull(),
    line: integer('line').notNull(),
    status: text('status').notNull(),
    suggestedFix: text('suggested_fix'),
  },
  (table) => [primaryKey({ columns: [table.runId, table.ord] })],
);

/** One row per finished span: every tool call, every worker execution (children of the tool call). */
export const spans = sqliteTable(
  'spans',
  {
    spanId: text('span_id').primaryKey(),
    traceId: text('trace_id').notNull(),
    parentSpanId: text('parent_span_id'),
    name: text('name').notNull(),
    /** 'tool' or 'worker'. */
    kind: text('kind').notNull(),
    tool: text('tool'),
    worker: text('worker'),
    runId: text('run_id'),
    correlationId: text('correlation_id'),
    startedAt: text('started_at').notNull(),
    durationMs: real('duration_ms').notNull(),
    /** 'ok' or 'error'. */
    outcome: text('outcome').notNull(),
    errorCode: text('error_code'),
  },
  (table) => [index('spans_run_idx').on(table.runId), index('spans_trace_idx').on(table.traceId)],
);

export type RunRow = typeof runs.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type ArtifactRow = typeof artifacts.$inferSelect;
export type IssueRow = typeof issues.$inferSelect;
export type SpanRow = typeof spans.$inferSelect;

/**
 * The MCP Tasks (extension io.modelcontextprotocol/tasks) of the launch tools, bound to the run they follow.
 * A task is written in the transaction that starts its work (the run's insert, the resume's lease), so it is
 * durable before the tool answers with it, and every replica on the database serves it. Its status is read
 * from the run (store/tasks.ts); `outcome` holds the answer the run alone cannot say.
 */
export const tasks = sqliteTable(
  'tasks',
  {
    taskId: text('task_id').primaryKey(),
    /** The principal that created it: only it sees the task. */
    principal: text('principal').notNull(),
    /** The tool that created it (launch_start_run, launch_resume...). */
    tool: text('tool').notNull(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.runId),
    /** What the task waits for: 'next-stable-state' (start, resume), or the work of one call ('call'). */
    target: text('target').notNull(),
    /** The lease token of the work behind the task: while the run names it, the work goes on. */
    leaseOwner: text('lease_owner'),
    createdMs: integer('created_ms').notNull(),
    updatedMs: integer('updated_ms').notNull(),
    /** Milliseconds after created_ms the task may be forgotten; null for never. */
    ttlMs: integer('ttl_ms'),
    /** JSON of how the task ended (store/tasks.ts TaskEnd), once it has and the run alone cannot say it. */
    outcome: text('outcome'),
    /**
     * The creating request declared the client's `sampling` capability: while its model-drafting run waits
     * for drafts, the task asks the client's model for them (tasks/task-drafts.ts).
     */
    sampling: integer('sampling', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [index('tasks_run_idx').on(table.runId)],
);

export type TaskRow = typeof tasks.$inferSelect;
