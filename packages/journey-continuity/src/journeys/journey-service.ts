// What the journey tools need from storage: one asynchronous interface, implemented over SQLite
// (sqlite-journey-service.ts, the embedded default) and over PostgreSQL (postgres-journey-service.ts).
// No database code here: each implementation loads only where it is used.
import { randomUUID } from 'node:crypto';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { DocumentType } from '@switchyard/contracts/journey';
import type { FAILED_STEP } from './database-errors.js';
import type { HistoryQuery, HistoryResult } from './history-result.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_MAX_TEXT_BYTES, type JourneyConfig } from '../config.js';
import {
  assertMaxBytes,
  assertMaxChars,
  MAX_METADATA_BYTES,
  MAX_SUMMARY_BYTES,
  MAX_TITLE_CHARS,
  utf8Bytes,
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

/** A session whole, as stored: its messages and diagnosis as the JSON text they were stored as. */
export interface StoredSession {
  id: string;
  journeyId: string;
  createdAt: number;
  summary: string;
  messagesJson: string | null;
  diagnosisJson: string | null;
  confidenceScore: number | null;
}

export interface DeletedJourney {
  id: string;
  sessionsDeleted: number;
  documentsDeleted: number;
}

/** The configuration the service applies (config.ts; an unset bound takes its default). */
export interface JourneyServiceOptions extends Pick<
  JourneyConfig,
  | 'maxDocumentBytes'
  | 'snippetScanBytes'
  | 'excerptBytes'
  | 'maxSessions'
  | 'maxTextBytes'
  | 'ftsMergeAfterMs'
  | 'ftsMergePages'
> {
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
  /** One session whole; 404 for an unknown session or one of another's journey. */
  readSession(sessionId: string, caller: Caller): Promise<StoredSession>;
  /** Whose journey the session belongs to, if it exists (for callers that may act for other principals). */
  ownerOfSession(sessionId: string): Promise<string | undefined>;
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

/** Also the answer for a session of another principal's journey. */
export function sessionNotFound(sessionId: string): SwitchyardError {
  return new SwitchyardError('not-found', `Session ${sessionId} not found`);
}

/** What a journey holds, as its bounds count it: its sessions, and the bytes of text its searches read. */
export interface JourneySize {
  sessions: number;
  /** UTF-8 bytes of its session summaries and its documents' titles and contents. */
  textBytes: number;
}

/** The per-journey bounds, with their defaults applied. */
export interface JourneyBounds {
  maxSessions: number;
  maxTextBytes: number;
}

export function journeyBounds(options: JourneyServiceOptions): JourneyBounds {
  return {
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxTextBytes: options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES,
  };
}

/**
 * 400 unless the journey can take one more session (`session: true`) or another `addedBytes` of text.
 * Searches read all of a journey's text, so these bounds are what bounds their cost; the message names
 * the setting an operator would raise.
 */
export function assertFits(
  journeyId: string,
  size: JourneySize,
  added: { session: boolean; textBytes: number },
  bounds: JourneyBounds,
): void {
  if (added.session && size.sessions >= bounds.maxSessions) {
    throw new SwitchyardError(
      'validation',
      `journey ${journeyId} already has ${size.sessions} sessions, the most JOURNEY_MAX_SESSIONS allows ` +
        `(${bounds.maxSessions})`,
    );
  }
  if (size.textBytes + added.textBytes > bounds.maxTextBytes) {
    throw new SwitchyardError(
      'validation',
      `journey ${journeyId} holds ${size.textBytes} bytes of text; ${added.textBytes} more would pass ` +
        `JOURNEY_MAX_TEXT_BYTES (${bounds.maxTextBytes})`,
    );
  }
}

/** The bytes of text a document adds to its journey: its title and content. */
export function documentTextBytes(input: Pick<NewDocument, 'title' | 'content'>): number {
  return utf8Bytes(input.title ?? '') + utf8Bytes(input.content ?? '');
}

/** A session's JSON fields as stored, after the limits every backend applies (400 naming the field). */
export function checkedSession(input: NewSession, maxDocumentBytes: number) {
  assertMaxBytes('summary', input.summary, MAX_SUMMARY_BYTES);
  const messages = input.messages === undefined ? null : JSON.stringify(input.messages);
  const diagnosis = input.diagnosis === undefined ? null : JSON.stringify(input.diagnosis);
  if (messages !== null) assertMaxBytes('messages', messages, maxDocumentBytes);
  if (diagnosis !== null) assertMaxBytes('diagnosis', diagnosis, maxDocumentBytes);
  return { messages, diagnosis, summaryBytes: utf8Bytes(input.summary) };
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
