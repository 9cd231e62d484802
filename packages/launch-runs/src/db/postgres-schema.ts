import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// The launch tables on PostgreSQL: schema.ts's columns and indexes under the same SQL names, so a selected
// row has the SQLite row's type (RunRow...). Timestamps stay ISO text as there; `*_ms` are bigints read as
// numbers. Artifact bytes live in the row (every replica reads them). No spans: telemetry stays in each
// replica's own SQLite file.

const bytea = customType<{ data: Uint8Array; driverData: Buffer }>({
  dataType: () => 'bytea',
  toDriver: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  fromDriver: (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength),
});

/** Run ids compare and sort by code point, as in SQLite, whatever the database's locale. */
const runIdInCodePointOrder = sql`"run_id" COLLATE "C"`;

/** See schema.ts's `runs`: the lease columns name the one executor allowed to work on the run. */
export const runs = pgTable(
  'runs',
  {
    runId: text('run_id').primaryKey(),
    owner: text('owner').notNull().default(''),
    productSlug: text('product_slug').notNull(),
    config: text('config').notNull(),
    configHash: text('config_hash').notNull(),
    idempotencyKey: text('idempotency_key'),
    state: text('state').notNull(),
    lastStableState: text('last_stable_state'),
    sectionStates: text('section_states').notNull(),
    fixAttempts: integer('fix_attempts').notNull().default(0),
    lastReportOk: boolean('last_report_ok'),
    activeWorker: text('active_worker'),
    lastError: text('last_error'),
    interruptedAt: text('interrupted_at'),
    sourceSha: text('source_sha'),
    siteSha: text('site_sha'),
    prUrl: text('pr_url'),
    branch: text('branch'),
    commitSha: text('commit_sha'),
    createdAt: text('created_at').notNull(),
    createdMs: bigint('created_ms', { mode: 'number' }).notNull(),
    updatedAt: text('updated_at').notNull(),
    finishedAt: text('finished_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresMs: bigint('lease_expires_ms', { mode: 'number' }),
    leaseRequest: text('lease_request'),
    leaseRequestCancelled: boolean('lease_request_cancelled').notNull().default(false),
  },
  (table) => [
    uniqueIndex('runs_owner_idempotency_key_unique').on(table.owner, table.idempotencyKey),
    index('runs_created_idx').on(table.createdMs, runIdInCodePointOrder),
    index('runs_owner_created_idx').on(table.owner, table.createdMs, runIdInCodePointOrder),
    index('runs_product_created_idx').on(table.productSlug, table.createdMs),
    index('runs_state_created_idx').on(table.state, table.createdMs),
    // An owner's active runs (store/active-runs.ts), counted by every start and every validation of a DONE
    // run: its unfinished states and its leased DONE runs are seeks, never a walk over all its runs.
    index('runs_owner_state_idx').on(table.owner, table.state, table.leaseExpiresMs),
    // The takeover watch (claimAbandoned) asks every few seconds on every replica: only held leases.
    index('runs_held_lease_idx')
      .on(table.leaseExpiresMs, table.createdMs)
      .where(sql`${table.leaseOwner} IS NOT NULL`),
  ],
);

/** Append-only, hash-chained per run (see schema.ts's `events`). */
export const events = pgTable(
  'events',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: text('event_id').notNull(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.runId),
    runSeq: integer('run_seq').notNull(),
    ts: text('ts').notNull(),
    type: text('type').notNull(),
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

/** The artifact index and the artifacts' bytes. Listings select the index columns only (`artifactIndex`). */
export const artifacts = pgTable(
  'artifacts',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.runId),
    name: text('name').notNull(),
    path: text('path').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    worker: text('worker').notNull(),
    writtenAt: text('written_at').notNull(),
    content: bytea('content').notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.name] })],
);

/** The artifacts' columns without their bytes: an ArtifactRow. */
export const artifactIndex = {
  runId: artifacts.runId,
  name: artifacts.name,
  path: artifacts.path,
  sha256: artifacts.sha256,
  size: artifacts.size,
  contentType: artifacts.contentType,
  worker: artifacts.worker,
  writtenAt: artifacts.writtenAt,
};

/** The issues of the latest validation report of each run, in report order. */
export const issues = pgTable(
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

/** See schema.ts's `tasks`: an MCP task bound to the run it follows. */
export const tasks = pgTable(
  'tasks',
  {
    taskId: text('task_id').primaryKey(),
    principal: text('principal').notNull(),
    tool: text('tool').notNull(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.runId),
    target: text('target').notNull(),
    leaseOwner: text('lease_owner'),
    createdMs: bigint('created_ms', { mode: 'number' }).notNull(),
    updatedMs: bigint('updated_ms', { mode: 'number' }).notNull(),
    ttlMs: bigint('ttl_ms', { mode: 'number' }),
    outcome: text('outcome'),
    sampling: boolean('sampling').notNull().default(false),
  },
  (table) => [index('tasks_run_idx').on(table.runId)],
);
