import type {
  Departure,
  GetDeparturesOutput,
  GetLondonArrivalsOutput,
  GetUserVariablesOutput,
  LondonArrival,
} from '@switchyard/contracts/transit';
import { serviceAlerts } from '../app/alerts.js';
import { statusText } from '../app/departure-status.js';
import { clock, h } from '../app/dom.js';
import { table } from '../app/table.js';
import { startView, toolButton, type ViewContext } from '../app/view.js';

type Board = GetDeparturesOutput | GetLondonArrivalsOutput;

/** One board, whichever tool answered: the tool to ask again and the saved-place type its stops are. */
interface Source {
  tool: 'get_departures' | 'get_london_arrivals';
  savedType: 'stop' | 'tfl-stop';
}

const sourceOf = (board: Board): Source =>
  'arrivals' in board
    ? { tool: 'get_london_arrivals', savedType: 'tfl-stop' }
    : { tool: 'get_departures', savedType: 'stop' };

function departureRow(departure: Departure, timeZone: string | undefined): HTMLTableRowElement {
  const cancelled = departure.status === 'cancelled';
  const time = clock(departure.realtimeTime ?? departure.scheduledTime, timeZone);
  return h(
    'tr',
    { class: cancelled ? 'cancelled' : undefined },
    h('td', {}, h('strong', {}, departure.line)),
    h('td', {}, departure.destination),
    h(
      'td',
      {},
      cancelled ? h('s', {}, clock(departure.scheduledTime, timeZone)) : time,
      departure.realtimeTime !== undefined && !cancelled
        ? h('span', { class: 'muted' }, ' realtime')
        : undefined,
    ),
    h('td', {}, statusText(departure.status, departure.delaySeconds)),
    h('td', {}, departure.platform ?? ''),
  );
}

function arrivalRow(arrival: LondonArrival, timeZone: string | undefined): HTMLTableRowElement {
  const minutes = arrival.minutesToArrival;
  return h(
    'tr',
    {},
    h('td', {}, h('strong', {}, arrival.lineName)),
    h('td', {}, arrival.destination || arrival.towards || ''),
    h('td', {}, clock(arrival.expectedArrival, timeZone)),
    h('td', {}, minutes === 0 ? 'Due' : `${minutes} min`),
    h('td', {}, arrival.platform ?? ''),
  );
}

/** A choice of the caller's saved stops of this board's kind, shown when the server offers the tools. */
function savedStops(source: Source, context: ViewContext): HTMLElement | undefined {
  if (context.callable('get_user_variables') === undefined || context.callable(source.tool) === undefined)
    return undefined;
  const select = h('select', { id: 'saved-stop' }, h('option', { value: '' }, 'Saved stops…'));
  const show = h('button', { type: 'button' }, 'Show');
  show.addEventListener('click', () => {
    if (select.value === '') return;
    const args = { ...context.input, stop: { type: 'label', value: select.value } };
    show.disabled = true;
    context.call(source.tool, args).catch((error: unknown) => {
      show.disabled = false;
      show.after(h('p', { role: 'alert' }, error instanceof Error ? error.message : String(error)));
    });
  });
  void context.ask('get_user_variables', {}).then((answer) => {
    const saved = (answer as GetUserVariablesOutput | undefined)?.variables ?? [];
    for (const place of saved.filter((entry) => entry.value.type === source.savedType))
      select.append(h('option', { value: place.key }, place.key));
  });
  return h('div', { class: 'row' }, h('label', { for: 'saved-stop' }, 'Saved stop'), select, show);
}

startView<Board>({
  name: 'departure-board',
  render(root, board, context) {
    const source = sourceOf(board);
    const zone = context.timeZone;
    const refresh = toolButton(context, 'Refresh', source.tool, () => context.input);
    const freshness = board.dataFreshness === null ? '' : `Updated ${clock(board.dataFreshness, zone)}`;
    root.append(
      h(
        'header',
        {},
        h('h1', {}, board.stopName ?? board.stopId ?? 'Departures'),
        h('span', { class: 'muted' }, freshness),
        refresh,
      ),
    );
    const choice = savedStops(source, context);
    if (choice !== undefined) root.append(choice);
    if ('arrivals' in board) {
      if (board.arrivals === null) {
        root.append(h('p', { role: 'alert' }, board.message));
        return;
      }
      root.append(
        board.arrivals.length === 0
          ? h('p', {}, 'No arrivals predicted.')
          : table(
              'Arrivals',
              ['Line', 'Destination', 'Expected', 'In', 'Platform'],
              board.arrivals.map((a) => arrivalRow(a, zone)),
            ),
      );
      return;
    }
    root.append(
      board.departures.length === 0
        ? h('p', {}, 'No departures in the window.')
        : table(
            'Departures',
            ['Line', 'Destination', 'Time', 'Status', 'Platform'],
            board.departures.map((d) => departureRow(d, zone)),
          ),
    );
    const shown = serviceAlerts(board.warnings);
    if (shown !== undefined) root.append(shown);
  },
});
