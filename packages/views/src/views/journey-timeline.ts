import type { QueryJourneyHistoryOutput } from '@switchyard/contracts/journey';
import { dateAndClock, h } from '../app/dom.js';
import { startView, toolButton, type ViewContext } from '../app/view.js';

type Session = QueryJourneyHistoryOutput['sessions'][number];
type Document = NonNullable<QueryJourneyHistoryOutput['documents']>[number];

/** One entry of the timeline, a session or a document. */
interface Entry {
  kind: 'session' | 'document';
  at: string | undefined;
  label: string;
  /** The summary or the title: the person's own text, shown as text. */
  text: string | undefined;
  truncated: boolean;
  snippet: string | undefined;
  facts: string[];
}

const DOCUMENT_TYPE_NAMES: Record<string, string> = {
  woop_plan: 'WOOP plan',
  file_upload: 'File',
  artifact: 'Artifact',
  note: 'Note',
};

function sessionEntry(session: Session): Entry {
  return {
    kind: 'session',
    at: session.created_at,
    label: 'Session',
    // The snippet is an excerpt of the summary with the matches marked: shown instead of it.
    text: session.snippet === undefined ? session.summary : undefined,
    truncated: session.summary_truncated === true,
    snippet: session.snippet,
    facts: [
      session.relevance_score === undefined ? '' : `match ${Math.round(session.relevance_score * 100)}%`,
      session.has_diagnosis ? 'diagnosis recorded' : '',
    ].filter(Boolean),
  };
}

function documentEntry(document: Document): Entry {
  const type = document.document_type;
  return {
    kind: 'document',
    at: document.created_at,
    label: type === undefined ? 'Document' : (DOCUMENT_TYPE_NAMES[type] ?? type),
    text: document.title,
    truncated: document.title_truncated === true,
    snippet: document.snippet,
    facts: [],
  };
}

/**
 * The search's snippet with its matches (between `**`, as the server marks them) highlighted: every part a
 * text node, so markup in the person's text stays text.
 */
function highlighted(snippet: string): HTMLElement {
  const parts = snippet.split('**');
  return h('p', { class: 'snippet' }, ...parts.map((part, i) => (i % 2 === 1 ? h('mark', {}, part) : part)));
}

function entryItem(entry: Entry, timeZone: string | undefined): HTMLLIElement {
  return h(
    'li',
    { class: 'card', 'data-kind': entry.kind },
    h(
      'p',
      { class: 'row' },
      h('strong', {}, entry.label),
      h('span', { class: 'muted time' }, dateAndClock(entry.at, timeZone)),
      ...entry.facts.map((fact) => h('span', { class: 'muted' }, fact)),
    ),
    entry.text === undefined ? undefined : h('p', {}, entry.truncated ? `${entry.text}…` : entry.text),
    entry.snippet === undefined ? undefined : highlighted(entry.snippet),
  );
}

/** Newest first: the sessions and documents of this page, in one line of time. */
function timeline(payload: QueryJourneyHistoryOutput): Entry[] {
  const entries = [...payload.sessions.map(sessionEntry), ...(payload.documents ?? []).map(documentEntry)];
  return entries.sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
}

function heading(payload: QueryJourneyHistoryOutput, context: ViewContext): string {
  const query = typeof context.input.query === 'string' ? context.input.query : undefined;
  const sessions = `${payload.total_results} ${payload.total_results === 1 ? 'session' : 'sessions'}`;
  return query === undefined ? `${sessions}, newest first` : `${sessions} matching “${query}”`;
}

startView<QueryJourneyHistoryOutput>({
  name: 'journey-timeline',
  render(root, payload, context) {
    const entries = timeline(payload);
    root.append(
      h(
        'header',
        {},
        h('h1', {}, 'Journey history'),
        h('span', { class: 'muted' }, heading(payload, context)),
      ),
      entries.length === 0
        ? h('p', {}, 'Nothing found in this journey.')
        : h(
            'ol',
            { 'aria-label': 'Timeline' },
            ...entries.map((entry) => entryItem(entry, context.timeZone)),
          ),
    );
    const cursor = payload.next_cursor;
    const more =
      typeof cursor === 'string'
        ? toolButton(context, 'More', 'query_journey_history', () => ({ ...context.input, cursor }))
        : undefined;
    if (more !== undefined) root.append(more);
  },
});
