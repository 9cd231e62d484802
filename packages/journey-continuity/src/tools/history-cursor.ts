// query_journey_history's cursor: where the next page of one search starts (how many sessions and documents
// the earlier pages held), tied to that search so that a cursor of another search is refused rather than
// read as offsets into it. Opaque to callers: base64url of a small JSON object.
import { hash } from 'node:crypto';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { QueryJourneyHistoryInput } from '@switchyard/contracts/journey';
import { FIRST_PAGE, type PageOffsets } from '../journeys/history-result.js';

type Search = Pick<
  QueryJourneyHistoryInput,
  'journey_id' | 'query' | 'from_date' | 'to_date' | 'include_documents'
>;

interface CursorBody {
  /** The search it belongs to. */
  q: string;
  s: number;
  d: number;
}

const NOT_THIS_SEARCHS =
  'cursor must be the next_cursor of an earlier answer to this same search (journey_id, query, dates and ' +
  'include_documents): leave it out for the first page';

/** What identifies a search for its cursor: every filter, not the page size. */
function searchKey(search: Search): string {
  const filters = [
    search.journey_id.toLowerCase(),
    search.query ?? '',
    search.from_date ?? '',
    search.to_date ?? '',
    search.include_documents === true,
  ];
  return hash('sha256', JSON.stringify(filters), 'base64url').slice(0, 16);
}

export function encodeCursor(search: Search, offsets: PageOffsets): string {
  const body: CursorBody = { q: searchKey(search), s: offsets.sessions, d: offsets.documents };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The offsets a cursor names (the first page without one); a validation error for any other cursor. */
export function decodeCursor(search: Search, cursor: string | undefined): PageOffsets {
  if (cursor === undefined) return FIRST_PAGE;
  let body: Partial<CursorBody>;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
  } catch {
    throw new SwitchyardError('validation', NOT_THIS_SEARCHS);
  }
  if (body?.q !== searchKey(search) || !isCount(body.s) || !isCount(body.d)) {
    throw new SwitchyardError('validation', NOT_THIS_SEARCHS);
  }
  return { sessions: body.s, documents: body.d };
}
