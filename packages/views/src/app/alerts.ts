import type { AnswerWarning } from '@switchyard/contracts/transit';
import { h } from './dom.js';

/** The service alerts among an answer's warnings (HSL's, from Digitransit), or nothing when there are none. */
export function serviceAlerts(warnings: readonly AnswerWarning[] | undefined): HTMLElement | undefined {
  const shown = (warnings ?? []).filter((warning) => warning.alert !== undefined);
  if (shown.length === 0) return undefined;
  return h(
    'section',
    { 'aria-label': 'Service alerts' },
    h('h2', {}, 'Service alerts'),
    h(
      'ul',
      {},
      ...shown.map((warning) =>
        h(
          'li',
          { class: 'card' },
          h('strong', { class: 'warning' }, warning.alert!.header),
          warning.alert!.description === undefined ? undefined : h('p', {}, warning.alert!.description),
        ),
      ),
    ),
  );
}
