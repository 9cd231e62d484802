import { ConfigError, resolvePostgresSettings, type PostgresSettings } from '@switchyard/server-kit/runtime';
import { z } from 'zod';
import { DATABASE_URL_VARIABLE } from './db/database.js';

export { ConfigError };

/**
 * What the operator configures. Where `journey-continuity.sqlite` lives is not part of it: the server's data
 * directory (SWITCHYARD_DATA_DIR, `DomainRuntime.dataDir`), which every domain of one server shares.
 */
export interface JourneyConfig {
  /** Largest document content in UTF-8 bytes (JOURNEY_MAX_DOCUMENT_BYTES, default 1 MiB). */
  maxDocumentBytes: number;
  /** How long a write waits for another process's lock (JOURNEY_BUSY_TIMEOUT_MS, default 5000). */
  busyTimeoutMs: number;
  /**
   * Most bytes of long session summaries and document contents one search reads to find where they match,
   * for their snippets (JOURNEY_SNIPPET_SCAN_BYTES; default DEFAULT_SNIPPET_SCAN_BYTES, 256 KiB).
   */
  snippetScanBytes?: number;
  /**
   * Most bytes of each text query_journey_history quotes (a summary's start, a snippet, a title), counted
   * as JSON writes them (JOURNEY_EXCERPT_BYTES; default DEFAULT_EXCERPT_BYTES, 512).
   */
  excerptBytes?: number;
  /** Most sessions one journey holds (JOURNEY_MAX_SESSIONS; default DEFAULT_MAX_SESSIONS, 1000). */
  maxSessions?: number;
  /**
   * Most bytes of text one journey holds, its session summaries and documents' titles and contents: what its
   * searches read (JOURNEY_MAX_TEXT_BYTES; default DEFAULT_MAX_TEXT_BYTES, 2 MiB).
   */
  maxTextBytes?: number;
  /**
   * How long after a write a SQLite full-text table starts being merged into one segment, and between the
   * merge's steps (JOURNEY_FTS_MERGE_AFTER_MS; default DEFAULT_FTS_MERGE_AFTER_MS, 1000; 0: never).
   */
  ftsMergeAfterMs?: number;
  /** Most pages one such merge step writes (JOURNEY_FTS_MERGE_PAGES; default DEFAULT_FTS_MERGE_PAGES, 64). */
  ftsMergePages?: number;
  /** Journeys on PostgreSQL (JOURNEY_DATABASE_URL, else SWITCHYARD_DATABASE_URL); absent: the SQLite file. */
  database?: PostgresSettings;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 1024 * 1024;
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
export const DEFAULT_SNIPPET_SCAN_BYTES = 256 * 1024;
export const DEFAULT_EXCERPT_BYTES = 512;
export const DEFAULT_MAX_SESSIONS = 1000;
/**
 * 2 MiB: a ranked search reads every position of every searched word in the journey, and at 2 MiB of the
 * densest text (one one-letter word repeated) the worst search still answers within 50 ms on SQLite; at 4 MiB
 * it took about twice that (README, _Journeys at their bounds_).
 */
export const DEFAULT_MAX_TEXT_BYTES = 2 * 1024 * 1024;
/** A second: the writes of one conversation (a session, its documents) share one merge (README, _Full-text index upkeep_). */
export const DEFAULT_FTS_MERGE_AFTER_MS = 1000;
/** 64 pages (256 KiB at SQLite's default page size): a step holds the server for a few milliseconds at most. */
export const DEFAULT_FTS_MERGE_PAGES = 64;
/** Room for a few words and a snippet's ellipsis. */
const MIN_EXCERPT_BYTES = 16;

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  return optionalInteger(env, name, min, max) ?? fallback;
}

function optionalInteger(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  return parsed.data;
}

/** Reads the journey configuration from the environment; throws ConfigError naming the variable. */
export function loadJourneyConfig(env: Env = process.env): JourneyConfig {
  // Left out when unset: the journey service applies the default, also to configurations built in code.
  const snippetScanBytes = optionalInteger(env, 'JOURNEY_SNIPPET_SCAN_BYTES', 0, 1024 * 1024 * 1024);
  const excerptBytes = optionalInteger(env, 'JOURNEY_EXCERPT_BYTES', MIN_EXCERPT_BYTES, 1024 * 1024);
  const maxSessions = optionalInteger(env, 'JOURNEY_MAX_SESSIONS', 1, 10_000_000);
  const maxTextBytes = optionalInteger(env, 'JOURNEY_MAX_TEXT_BYTES', 1, 1024 * 1024 * 1024 * 1024);
  const journeyTextBytes = maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES;
  const documentBytes = optionalInteger(env, 'JOURNEY_MAX_DOCUMENT_BYTES', 1, 64 * 1024 * 1024);
  // A document is part of its journey's text: one larger than the journey may hold could never be stored.
  if (documentBytes !== undefined && documentBytes > journeyTextBytes) {
    throw new ConfigError(
      'JOURNEY_MAX_DOCUMENT_BYTES',
      `must be at most JOURNEY_MAX_TEXT_BYTES (${journeyTextBytes}), the text one journey may hold ` +
        `(got ${documentBytes}); raise JOURNEY_MAX_TEXT_BYTES with it`,
    );
  }
  // Unset, it follows a text bound set below the default.
  const maxDocumentBytes = documentBytes ?? Math.min(DEFAULT_MAX_DOCUMENT_BYTES, journeyTextBytes);
  const database = resolvePostgresSettings(env, DATABASE_URL_VARIABLE);
  const ftsMergeAfterMs = optionalInteger(env, 'JOURNEY_FTS_MERGE_AFTER_MS', 0, 86_400_000);
  const ftsMergePages = optionalInteger(env, 'JOURNEY_FTS_MERGE_PAGES', 1, 1_000_000);
  return {
    maxDocumentBytes,
    busyTimeoutMs: integer(env, 'JOURNEY_BUSY_TIMEOUT_MS', DEFAULT_BUSY_TIMEOUT_MS, 0, 600_000),
    snippetScanBytes,
    excerptBytes,
    maxSessions,
    maxTextBytes,
    ftsMergeAfterMs,
    ftsMergePages,
    database,
  };
}
