import Database from 'better-sqlite3';
import { TOKENIZER } from '../db/fts.js';
import { anyPhrase } from './fts-query.js';
import { utf8Bytes } from './limits.js';
import {
  continued,
  PROBE_OVERLAP,
  PROBE_STRIDE,
  pieceLength,
  probeWindows,
  readPiece,
  SNIPPET_WINDOW_CHARS,
  windowAt,
  type TextReader,
  type TextWindow,
} from './text-windows.js';

/** Matches are shown in markdown bold; a snippet keeps about this many words around them. */
export const MARK = '**';
export const ELLIPSIS = '…';
const SNIPPET_TOKENS = 16;

/**
 * snippet() scores every match of a row against every other (fts5SnippetScore), so its work grows with the
 * square of the matches it is given: 1024 characters of one repeated word hold 512, 256k comparisons. Each
 * text is given up to its MAX_SNIPPET_MATCHES-th match (found first by highlight(), which reads a text once):
 * a text with fewer, which is every ordinary one, is given whole as before.
 */
const MAX_SNIPPET_MATCHES = 32;
/** A noncharacter, which no ordinary text holds; in SQL, the same character. */
const MATCH_MARKER = '\uFFFF';
const MARKER_SQL = 'char(65535)';

// Probing reads a long text in batches of probe windows that double in size: little is read when the
// match is early (one window: a page of 100 long texts matching early reads about 90 KB of the scan budget),
// and few reads (each loads a document's whole row) when it is far in.
const FIRST_PROBE_BATCH = 1;
const LAST_PROBE_BATCH = 1024;

/** A result as the scratch table shows it: its item (the source's index), its title and its window's text. */
type ShownValues = [item: number, title: string | null, body: string | null];

/**
 * Results shown by one INSERT at most: a statement per row costs about 0.5 µs a result more (each is a call
 * into SQLite), and a statement per count up to this is few to prepare.
 */
const SHOW_BATCH = 16;

/** A row of the scratch table as marked or snippeted: its item (the source's index) and its two texts. */
interface ShownRow {
  item: number;
  title: string | null;
  body: string | null;
}

const isAsciiLetterOrDigit = (unit: number) =>
  (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a);

/**
 * At least as many places as highlight() marks in `text` with MATCH_MARKER for a query of `phrases` phrases,
 * counted without FTS5, so that a text it shows cannot hold more than MAX_SNIPPET_MATCHES goes to snippet()
 * without that pass. A mark starts a match, a match starts at a token, and at most one match of each phrase
 * starts at each token. The tokenizer splits at every ASCII character but a letter or digit, so a token holds
 * a whole run of ASCII letters and digits or is made of other characters only: there are at most as many
 * tokens as such runs plus UTF-16 units past ASCII. The marker characters the text holds itself (past ASCII)
 * count as marks too.
 */
export function marksAtMost(text: string, phrases: number): number {
  let runs = 0;
  let beyondAscii = 0;
  let inRun = false;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const letterOrDigit = isAsciiLetterOrDigit(unit);
    if (letterOrDigit && !inRun) runs += 1;
    if (unit > 0x7f) beyondAscii += 1;
    inRun = letterOrDigit;
  }
  return (runs + beyondAscii) * phrases + beyondAscii;
}

/** One result's texts: its searched text (read on demand) and, for a document, its title. */
export interface SnippetSource {
  read: TextReader;
  title?: string | null;
}

/** The snippets of one result: of its text and of its title, `undefined` where nothing matched. */
export interface Snippets {
  text?: string;
  title?: string;
}

/**
 * Cuts snippets from bounded windows of the results' texts, with FTS5's own tokenizer and snippet() in a
 * private in-memory database (never the journey file: nothing there is written or locked). A text of at
 * most SNIPPET_WINDOW_CHARS characters is given whole. A longer one is first searched for where it
 * matches: its probe windows go into a contentless FTS5 table batch by batch until one matches, and
 * that search may read at most `scanBytes` bytes of text per call (shared by all of its results); a
 * result whose match lies beyond that gets no snippet of its text.
 */
export class SnippetMaker {
  private readonly scratch: Database.Database;
  private readonly statements;
  /** The statements that show 1 to SHOW_BATCH results at once, by count, made as first needed. */
  private readonly shows = new Map<number, Database.Statement<unknown[], never>>();

  constructor(private readonly scanBytes: number) {
    this.scratch = new Database(':memory:');
    this.scratch.exec(
      `CREATE VIRTUAL TABLE probes USING fts5(body, content='', columnsize=0, tokenize='${TOKENIZER}');
       CREATE VIRTUAL TABLE shown USING fts5(title, body, tokenize='${TOKENIZER}');`,
    );
    const s = this.scratch;
    // Parameters by position, the constants in the text: better-sqlite3 binds a named parameter by looking
    // it up on the object, about 0.5 µs each (a page of 10 results' rows took 17 µs more).
    this.statements = {
      begin: s.prepare('BEGIN'),
      rollback: s.prepare('ROLLBACK'),
      clearProbes: s.prepare(`INSERT INTO probes(probes) VALUES ('delete-all')`),
      // One row at a time: through json_each, a text of control characters cost 15 times more (each
      // escaped to six bytes, then decoded again).
      addProbe: s.prepare<[rowid: number, body: string], never>(
        'INSERT INTO probes(rowid, body) VALUES (?, ?)',
      ),
      firstProbeHit: s
        .prepare<[match: string, first: number], number>(
          'SELECT rowid FROM probes WHERE probes MATCH ? AND rowid >= ? ORDER BY rowid LIMIT 1',
        )
        .pluck(),
      marked: s.prepare<[match: string], ShownRow>(
        `SELECT rowid AS item, highlight(shown, 0, ${MARKER_SQL}, '') AS title,
                highlight(shown, 1, ${MARKER_SQL}, '') AS body
           FROM shown WHERE shown MATCH ?`,
      ),
      reshow: s.prepare<[title: string | null, body: string | null, item: number], never>(
        'UPDATE shown SET title = ?, body = ? WHERE rowid = ?',
      ),
      snippets: s.prepare<[match: string], ShownRow>(
        `SELECT rowid AS item,
                snippet(shown, 0, '${MARK}', '${MARK}', '${ELLIPSIS}', ${SNIPPET_TOKENS}) AS title,
                snippet(shown, 1, '${MARK}', '${MARK}', '${ELLIPSIS}', ${SNIPPET_TOKENS}) AS body
           FROM shown WHERE shown MATCH ?`,
      ),
    };
  }

  /**
   * Snippets for `sources` (in result order: the scan budget goes to the first) where any of `phrases` (FTS5
   * phrases, toFtsPhrases') matches.
   */
  snippets(sources: readonly SnippetSource[], phrases: readonly string[]): Snippets[] {
    if (sources.length === 0) return [];
    const match = anyPhrase(phrases);
    const { begin, rollback, snippets } = this.statements;
    const budget = { bytes: this.scanBytes };
    begin.run();
    try {
      const windows = sources.map((source) => this.windowOf(source.read, match, budget));
      const rows = sources.map((source, item): ShownValues => [
        item,
        source.title ?? null,
        windows[item]?.text ?? null,
      ]);
      for (let first = 0; first < rows.length; first += SHOW_BATCH) {
        const batch = rows.slice(first, first + SHOW_BATCH);
        this.showing(batch.length).run(batch.flat());
      }
      const crowded = (text: string | null | undefined) =>
        text != null && marksAtMost(text, phrases.length) > MAX_SNIPPET_MATCHES;
      if (sources.some((source, item) => crowded(source.title) || crowded(windows[item]?.text))) {
        this.showFewMatches(windows, match);
      }
      const found: Snippets[] = sources.map(() => ({}));
      for (const row of snippets.all(match)) {
        const window = windows[row.item];
        found[row.item] = {
          ...(window === undefined || !row.body ? {} : { text: continued(row.body, window, ELLIPSIS) }),
          ...(row.title ? { title: row.title } : {}),
        };
      }
      return found;
    } finally {
      // Nothing of a search stays behind in the scratch tables.
      rollback.run();
    }
  }

  /**
   * Cuts each shown text with more than MAX_SNIPPET_MATCHES matches before the next one (its window then
   * goes on past its end). highlight() marks each match with MATCH_MARKER: one character, since its
   * output grows with every mark. A text that holds the marker itself is only cut sooner, and loses it.
   */
  private showFewMatches(windows: (TextWindow | undefined)[], match: string): void {
    const { marked, reshow } = this.statements;
    const marker = MATCH_MARKER;
    const fewer = (text: string | null) => {
      const parts = text?.split(marker) ?? [];
      return parts.length - 1 > MAX_SNIPPET_MATCHES
        ? parts.slice(0, MAX_SNIPPET_MATCHES + 1).join('')
        : undefined;
    };
    for (const row of marked.all(match)) {
      const [title, body] = [fewer(row.title), fewer(row.body)];
      if (title === undefined && body === undefined) continue;
      const window = windows[row.item];
      if (body !== undefined && window !== undefined)
        windows[row.item] = { ...window, text: body, toEnd: false };
      reshow.run(
        title ?? row.title?.replaceAll(marker, '') ?? null,
        body ?? row.body?.replaceAll(marker, '') ?? null,
        row.item,
      );
    }
  }

  close(): void {
    this.scratch.close();
  }

  /** The statement that shows `count` results (item, title, body each) in one INSERT. */
  private showing(count: number): Database.Statement<unknown[], never> {
    let statement = this.shows.get(count);
    if (statement === undefined) {
      const values = Array.from({ length: count }, () => '(?, ?, ?)').join(', ');
      statement = this.scratch.prepare<unknown[], never>(
        `INSERT INTO shown(rowid, title, body) VALUES ${values}`,
      );
      this.shows.set(count, statement);
    }
    return statement;
  }

  /** The window a snippet is cut from: the whole text when it is short, else from its first match. */
  private windowOf(read: TextReader, match: string, budget: { bytes: number }): TextWindow | undefined {
    const head = read(0, SNIPPET_WINDOW_CHARS + 1);
    if (head.length <= SNIPPET_WINDOW_CHARS) return { text: head, fromStart: true, toEnd: true };
    const start = this.firstMatch(read, match, budget);
    return start === undefined ? undefined : windowAt(read, start);
  }

  /** Where the first probe window that matches starts (characters), within the budget. */
  private firstMatch(read: TextReader, match: string, budget: { bytes: number }): number | undefined {
    const { clearProbes, addProbe, firstProbeHit } = this.statements;
    clearProbes.run();
    let first = 0;
    let batch = FIRST_PROBE_BATCH;
    while (budget.bytes > 0) {
      const wanted = Math.min(batch * PROBE_STRIDE, budget.bytes) + PROBE_OVERLAP;
      const piece = readPiece(read, first * PROBE_STRIDE, wanted);
      const length = pieceLength(piece, wanted);
      // A piece starts with the overlap the previous one ended with: that was read already.
      const fresh = piece.text.slice(piece.lead + (first === 0 ? 0 : PROBE_OVERLAP), piece.lead + length);
      budget.bytes -= utf8Bytes(fresh);
      const windows = probeWindows(piece, length);
      windows.forEach((body, i) => addProbe.run(first + i, body));
      const hit = firstProbeHit.get(match, first);
      if (hit !== undefined) return hit * PROBE_STRIDE;
      if (length < wanted || piece.text.length - piece.lead === wanted) return undefined; // the text ended
      first += windows.length;
      batch = Math.min(2 * batch, LAST_PROBE_BATCH);
    }
    return undefined;
  }
}
