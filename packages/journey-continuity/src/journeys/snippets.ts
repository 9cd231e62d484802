import Database from 'better-sqlite3';
import { TOKENIZER } from '../db/fts.js';
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
/** A noncharacter, which no ordinary text holds. */
const MATCH_MARKER = '\uFFFF';

// Probing reads a long text in batches of probe windows that double in size: little is read when the
// match is early (one window: a page of 100 long texts matching early reads about 90 KB of the scan budget),
// and few reads (each loads a document's whole row) when it is far in.
const FIRST_PROBE_BATCH = 1;
const LAST_PROBE_BATCH = 1024;

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

  constructor(private readonly scanBytes: number) {
    this.scratch = new Database(':memory:');
    this.scratch.exec(
      `CREATE VIRTUAL TABLE probes USING fts5(body, content='', columnsize=0, tokenize='${TOKENIZER}');
       CREATE VIRTUAL TABLE shown USING fts5(title, body, tokenize='${TOKENIZER}');`,
    );
    const s = this.scratch;
    this.statements = {
      begin: s.prepare('BEGIN'),
      rollback: s.prepare('ROLLBACK'),
      clearProbes: s.prepare(`INSERT INTO probes(probes) VALUES ('delete-all')`),
      // One row at a time: through json_each, a text of control characters cost 15 times more (each
      // escaped to six bytes, then decoded again).
      addProbe: s.prepare<unknown[], never>('INSERT INTO probes(rowid, body) VALUES (@rowid, @body)'),
      firstProbeHit: s
        .prepare<unknown[], number>(
          'SELECT rowid FROM probes WHERE probes MATCH @match AND rowid >= @first ORDER BY rowid LIMIT 1',
        )
        .pluck(),
      show: s.prepare<unknown[], never>(
        'INSERT INTO shown(rowid, title, body) VALUES (@item, @title, @body)',
      ),
      marked: s.prepare<unknown[], { item: number; title: string | null; body: string | null }>(
        `SELECT rowid AS item, highlight(shown, 0, @marker, '') AS title, highlight(shown, 1, @marker, '') AS body
           FROM shown WHERE shown MATCH @match`,
      ),
      reshow: s.prepare<unknown[], never>(
        'UPDATE shown SET title = @title, body = @body WHERE rowid = @item',
      ),
      snippets: s.prepare<unknown[], { item: number; title: string | null; body: string | null }>(
        `SELECT rowid AS item,
                snippet(shown, 0, @mark, @mark, @ellipsis, @tokens) AS title,
                snippet(shown, 1, @mark, @mark, @ellipsis, @tokens) AS body
           FROM shown WHERE shown MATCH @match`,
      ),
    };
  }

  /** Snippets for `sources` (in result order: the scan budget goes to the first) where `match` matches. */
  snippets(sources: readonly SnippetSource[], match: string): Snippets[] {
    if (sources.length === 0) return [];
    const { begin, rollback, show, snippets } = this.statements;
    const budget = { bytes: this.scanBytes };
    begin.run();
    try {
      const windows = sources.map((source) => this.windowOf(source.read, match, budget));
      sources.forEach((source, item) =>
        show.run({ item, title: source.title ?? null, body: windows[item]?.text ?? null }),
      );
      this.showFewMatches(windows, match);
      const found: Snippets[] = sources.map(() => ({}));
      for (const row of snippets.all({ match, mark: MARK, ellipsis: ELLIPSIS, tokens: SNIPPET_TOKENS })) {
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
    for (const row of marked.all({ match, marker })) {
      const [title, body] = [fewer(row.title), fewer(row.body)];
      if (title === undefined && body === undefined) continue;
      const window = windows[row.item];
      if (body !== undefined && window !== undefined)
        windows[row.item] = { ...window, text: body, toEnd: false };
      reshow.run({
        item: row.item,
        title: title ?? row.title?.replaceAll(marker, '') ?? null,
        body: body ?? row.body?.replaceAll(marker, '') ?? null,
      });
    }
  }

  close(): void {
    this.scratch.close();
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
      windows.forEach((body, i) => addProbe.run({ rowid: first + i, body }));
      const hit = firstProbeHit.get({ match, first });
      if (hit !== undefined) return hit * PROBE_STRIDE;
      if (length < wanted || piece.text.length - piece.lead === wanted) return undefined; // the text ended
      first += windows.length;
      batch = Math.min(2 * batch, LAST_PROBE_BATCH);
    }
    return undefined;
  }
}
