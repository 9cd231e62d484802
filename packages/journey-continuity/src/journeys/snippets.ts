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

// Probing reads a long text in batches of probe windows that double in size: little is read when the
// match is early, and few reads (each loads a document's whole row) when it is far in.
const FIRST_PROBE_BATCH = 4;
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
      addProbes: s.prepare<unknown[], never>(
        'INSERT INTO probes(rowid, body) SELECT @first + key, value FROM json_each(@windows)',
      ),
      firstProbeHit: s
        .prepare<unknown[], number>(
          'SELECT rowid FROM probes WHERE probes MATCH @match AND rowid >= @first ORDER BY rowid LIMIT 1',
        )
        .pluck(),
      show: s.prepare<unknown[], never>(
        'INSERT INTO shown(rowid, title, body) VALUES (@item, @title, @body)',
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
    const { clearProbes, addProbes, firstProbeHit } = this.statements;
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
      addProbes.run({ first, windows: JSON.stringify(windows) });
      const hit = firstProbeHit.get({ match, first });
      if (hit !== undefined) return hit * PROBE_STRIDE;
      if (length < wanted || piece.text.length - piece.lead === wanted) return undefined; // the text ended
      first += windows.length;
      batch = Math.min(2 * batch, LAST_PROBE_BATCH);
    }
    return undefined;
  }
}
