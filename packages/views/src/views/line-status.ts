import type { GetLineStatusOutput, LineStatus } from '@switchyard/contracts/transit';
import { clock, h } from '../app/dom.js';
import { startView, toolButton, type ViewContext } from '../app/view.js';

/** TfL's severity 10 is Good Service; lower is worse, above 10 is a closed or not-running line (at night). */
function tone(line: LineStatus): string {
  return line.disrupted ? 'danger' : 'success';
}

function lineCard(line: LineStatus, context: ViewContext): HTMLLIElement {
  return h(
    'li',
    { class: 'card' },
    h('h2', {}, line.name, h('span', { class: 'muted' }, ` · ${line.mode}`)),
    h(
      'ul',
      {},
      ...line.statuses.map((status) =>
        h(
          'li',
          {},
          h('strong', { class: tone(line) }, status.description),
          status.reason === undefined ? undefined : h('p', {}, status.reason),
          ...status.validity
            .filter((period) => !period.isNow)
            .map((period) =>
              h(
                'p',
                { class: 'muted' },
                `From ${clock(period.from, context.timeZone)} to ${clock(period.to, context.timeZone)}`,
              ),
            ),
        ),
      ),
    ),
  );
}

startView<GetLineStatusOutput>({
  name: 'line-status',
  render(root, payload, context) {
    const refresh = toolButton(context, 'Refresh', 'get_line_status', () => context.input);
    const freshness =
      payload.dataFreshness === null ? '' : `TfL at ${clock(payload.dataFreshness, context.timeZone)}`;
    root.append(
      h('header', {}, h('h1', {}, 'London line status'), h('span', { class: 'muted' }, freshness), refresh),
    );
    if (payload.lines === null) {
      root.append(h('p', { role: 'alert' }, payload.message));
      return;
    }
    // The tool lists disrupted lines first; a stable sort keeps that even for an answer from elsewhere.
    const lines = [...payload.lines].sort((a, b) => Number(b.disrupted) - Number(a.disrupted));
    const disrupted = lines.filter((line) => line.disrupted).length;
    root.append(
      h(
        'p',
        {},
        disrupted === 0
          ? 'Good service on every line shown.'
          : `${disrupted} of ${lines.length} lines disrupted.`,
      ),
      h('ul', { 'aria-label': 'Lines' }, ...lines.map((line) => lineCard(line, context))),
    );
  },
});
