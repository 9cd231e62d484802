// What the journey tools need from storage: one asynchronous interface, implemented over SQLite
// (sqlite-journey-service.ts, the embedded default) and over PostgreSQL (postgres-journey-service.ts).
// No database code here: each implementation loads only where it is used.
import { randomUUID } from 'node:crypto';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { DocumentType } from '@switchyard/contracts/journey';
import type { FAILED_STEP } from './database-errors.js';
import type { HistoryQuery, HistoryResult } from './history-result.js';
import {
  assertMaxBytes,
  assertMaxChars,
  MAX_METADATA_BYTES,
  MAX_SUMMARY_BYTES,
  MAX_TITLE_CHARS,
} from './limits.js';

export type { DocumentHit, HistoryQuery, HistoryResult, SessionHit } from './history-result.js';

export interface JourneySummary {
  id: string;
  userId: string | null;
  createdAt: number;
  sessionCount: number;
  isNew: boolean;
}

/** Who is asking: every journey belongs to the principal that created it, and only it may reach it. */
export interface Caller {
  owner: string;
}

export interface NewSession extends Caller {
  journeyId: string;
  summary: string;
  messages?: unknown[];
  diagnosis?: Record<string, unknown>;
  confidenceScore?: number;
  /** Milliseconds since the epoch; default now. */
  createdAt?: number;
}

export interface RecordedSession {
  id: string;
  journeyId: string;
  createdAt: number;
  hasDiagnosis: boolean;
  confidenceScore: number | null;
  sessionCount: number;
}

export interface NewDocument extends Caller {
  journeyId: string;
  documentType: DocumentType;
  title?: string;
  content?: string;
  metadata?: Record<string, unknown>;
}

export interface AddedDocument {
  id: string;
  journeyId: string;
  documentType: DocumentType;
  title: string | null;
  contentBytes: number;
  metadata: Record<string, unknown>;
  createdAt: number;
}

export interface DeletedJourney {
  id: string;
  sessionsDeleted: number;
  documentsDeleted: number;
}

export interface JourneyServiceOptions {
  /** Largest document content, in UTF-8 bytes (also bounds a session's messages and diagnosis as JSON). */
  maxDocumentBytes: number;
  /** Most bytes of long texts one search reads for its snippets (default DEFAULT_SNIPPET_SCAN_BYTES). */
  snippetScanBytes?: number;
  now?: () => number;
}

/**
 * The journey domain as the tools see it: plain inputs and outputs, SwitchyardErrors on failure (a database
 * failure is its operation's DATABASE_ERROR, database-errors.ts). Every record belongs to its owner: another
 * owner's journey answers 404 like a missing one.
 */
export interface JourneyService {
  /**
   * The caller's journey for `userId` (created if there is none), or a new anonymous journey without one.
   * Each owner has its own users: the same user_id from two principals names two journeys.
   */
  getOrCreateJourney(caller: Caller, userId?: string): Promise<JourneySummary>;
  /** 404 for an unknown journey or another's; the check and the search read one snapshot. */
  queryHistory(query: HistoryQuery, caller: Caller): Promise<HistoryResult>;
  /**
   * The user ids of the caller's journeys that start with `prefix` (in any case: ids are stored in lower
   * case), the most recently updated first, at most `limit` (completions).
   */
  userIds(caller: Caller, prefix: string, limit: number): Promise<string[]>;
  /** Whose the journey is, if it exists (for callers that may act for other principals). */
  ownerOf(journeyId: string, operation: keyof typeof FAILED_STEP): Promise<string | undefined>;
  /**
   * Gives every journey of owner `from` to owner `to` (one principal whose spelling changed). Where both
   * have a journey for the same user_id, the two become `from`'s journey, which keeps its id and gains the
   * other's sessions and documents: nothing is lost, and the user has one journey again. Reads first: with
   * nothing under `from` (every call after the first) nothing is written.
   */
  adoptJourneys(from: string, to: string, operation: keyof typeof FAILED_STEP): Promise<void>;
  addDocument(input: NewDocument): Promise<AddedDocument>;
  recordSession(input: NewSession): Promise<RecordedSession>;
  /** Deletes the journey; its sessions, documents and their index entries go with it. */
  deleteJourney(journeyId: string, caller: Caller): Promise<DeletedJourney>;
  /** Frees what the service holds beside the database (which its owner closes). */
  close(): void;
}

/** Also the answer for another principal's journey: the two cannot be told apart. */
export function journeyNotFound(journeyId: string): SwitchyardError {
  return new SwitchyardError('not-found', `Journey ${journeyId} not found`);
}

/** A session's JSON fields as stored, after the limits every backend applies (400 naming the field). */
export function checkedSession(input: NewSession, maxDocumentBytes: number) {
  assertMaxBytes('summary', input.summary, MAX_SUMMARY_BYTES);
  const messages = input.messages === undefined ? null : JSON.stringify(input.messages);
  const diagnosis = input.diagnosis === undefined ? null : JSON.stringify(input.diagnosis);
  if (messages !== null) assertMaxBytes('messages', messages, maxDocumentBytes);
  if (diagnosis !== null) assertMaxBytes('diagnosis', diagnosis, maxDocumentBytes);
  return { messages, diagnosis };
}

/** The row a new session writes, its id made here, after `checkedSession`. */
export function sessionRow(input: NewSession, checked: ReturnType<typeof checkedSession>, now: number) {
  return {
    id: randomUUID(),
    journeyId: input.journeyId.toLowerCase(),
    createdAt: input.createdAt ?? now,
    summary: input.summary,
    messages: checked.messages,
    diagnosis: checked.diagnosis,
    confidenceScore: input.confidenceScore ?? null,
  };
}

/** What record_session answers for a stored session row. */
export function recordedSession(row: ReturnType<typeof sessionRow>, sessionCount: number): RecordedSession {
  return {
    id: row.id,
    journeyId: row.journeyId,
    createdAt: row.createdAt,
    hasDiagnosis: row.diagnosis !== null,
    confidenceScore: row.confidenceScore,
    sessionCount,
  };
}

/** A document's metadata as stored, after the limits every backend applies (400 naming the field). */
export function checkedDocument(input: NewDocument, maxDocumentBytes: number) {
  if (input.title !== undefined) assertMaxChars('title', input.title, MAX_TITLE_CHARS);
  if (input.content !== undefined) assertMaxBytes('content', input.content, maxDocumentBytes);
  const metadataJson = JSON.stringify(input.metadata ?? {});
  assertMaxBytes('metadata', metadataJson, MAX_METADATA_BYTES);
  return { metadataJson };
}

/** What add_document answers for a stored document. */
export function addedDocument(
  input: NewDocument,
  stored: { id: string; journeyId: string; metadataJson: string; createdAt: number },
): AddedDocument {
  return {
    id: stored.id,
    journeyId: stored.journeyId,
    documentType: input.documentType,
    title: input.title ?? null,
    contentBytes: input.content === undefined ? 0 : Buffer.byteLength(input.content, 'utf8'),
    metadata: JSON.parse(stored.metadataJson) as Record<string, unknown>,
    createdAt: stored.createdAt,
  };
}
