import { h } from './dom.js';

/** A table with its caption (for screen readers) and column headings. */
export function table(caption: string, headings: string[], rows: HTMLTableRowElement[]): HTMLTableElement {
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, ...rows),
  );
}

/** A row of plain cells. */
export function row(cells: readonly (string | Node)[]): HTMLTableRowElement {
  return h('tr', {}, ...cells.map((cell) => h('td', {}, cell)));
}
