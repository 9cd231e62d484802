import type {
  DepartureStatus,
  Itinerary,
  ItineraryLeg,
  JourneyDisambiguationSuggestion,
  JourneyLegSummary,
  JourneyOptionSummary,
  LocationRef,
  PlanJourneyOutput,
  PlanTripOutput,
} from '@switchyard/contracts/transit';
import { serviceAlerts } from '../app/alerts.js';
import { statusText } from '../app/departure-status.js';
import { clock, h } from '../app/dom.js';
import { startView, toolButton, type ViewContext } from '../app/view.js';

type Plan = PlanTripOutput | PlanJourneyOutput;

/** One leg, whichever planner answered (HSL's OpenTripPlanner or TfL's Journey Planner). */
interface Leg {
  mode: string;
  line?: string;
  /** Where it heads (HSL's headsign) or TfL's one-line instruction. */
  detail?: string;
  from: string;
  to: string;
  start: string;
  end: string;
  distanceMeters?: number;
  /** HSL's realtime status of a transit leg. */
  status?: { value: DepartureStatus; delaySeconds?: number };
  disrupted: boolean;
}

/** One way to make the trip. */
interface Option {
  start: string;
  end: string;
  minutes: number;
  legs: Leg[];
  disrupted: boolean;
  /** HSL's alternative found because an itinerary was cancelled or badly delayed. */
  alternative: boolean;
  facts: string[];
}

/** Both planners' mode names (OpenTripPlanner's upper case, TfL's ids) as people say them. */
const MODE_NAMES: Record<string, string> = {
  WALK: 'Walk',
  walking: 'Walk',
  BICYCLE: 'Bike',
  cycle: 'Bike',
  BUS: 'Bus',
  bus: 'Bus',
  TRAM: 'Tram',
  tram: 'Tram',
  SUBWAY: 'Metro',
  tube: 'Tube',
  RAIL: 'Train',
  'national-rail': 'National Rail',
  overground: 'Overground',
  'elizabeth-line': 'Elizabeth line',
  dlr: 'DLR',
  FERRY: 'Ferry',
  'river-bus': 'River bus',
  coach: 'Coach',
};

const SCHEDULE_TEXT: Record<PlanTripOutput['realtimeUsed'], string> = {
  realtime: 'Realtime',
  mixed: 'Partly realtime',
  scheduled: 'Timetable only',
};

const isWalk = (mode: string): boolean => mode === 'WALK' || mode === 'walking';

const distance = (meters: number): string =>
  meters >= 1000 ? `${(meters / 1000).toFixed(1)} km` : `${Math.round(meters)} m`;

function placeName(place: LocationRef): string {
  return (
    place.name ??
    place.label ??
    place.address ??
    `${place.coordinate.lat.toFixed(4)}, ${place.coordinate.lon.toFixed(4)}`
  );
}

function hslLeg(leg: ItineraryLeg): Leg {
  return {
    mode: leg.mode,
    line: leg.line,
    detail: leg.headsign,
    from: leg.from.name,
    to: leg.to.name,
    start: leg.startTime,
    end: leg.endTime,
    distanceMeters: leg.distanceMeters,
    status: leg.transit ? { value: leg.status, delaySeconds: leg.delaySeconds } : undefined,
    disrupted: leg.status === 'cancelled',
  };
}

function hslOption(itinerary: Itinerary): Option {
  return {
    start: itinerary.startTime,
    end: itinerary.endTime,
    minutes: Math.round(itinerary.durationSeconds / 60),
    legs: itinerary.legs.map(hslLeg),
    disrupted: itinerary.disrupted,
    alternative: itinerary.disruptionFlag,
    facts: [
      SCHEDULE_TEXT[itinerary.scheduleType],
      `${itinerary.transfers} ${itinerary.transfers === 1 ? 'transfer' : 'transfers'}`,
      `walk ${distance(itinerary.walkDistanceMeters)}`,
    ],
  };
}

function tflLeg(leg: JourneyLegSummary): Leg {
  return {
    mode: leg.mode,
    line: leg.line,
    detail: leg.summary,
    from: leg.from,
    to: leg.to,
    start: leg.departureTime,
    end: leg.arrivalTime,
    distanceMeters: leg.distanceMeters,
    disrupted: leg.isDisrupted,
  };
}

function tflOption(journey: JourneyOptionSummary): Option {
  const fare = journey.farePence === undefined ? [] : [`£${(journey.farePence / 100).toFixed(2)}`];
  return {
    start: journey.startDateTime,
    end: journey.arrivalDateTime,
    minutes: journey.durationMinutes,
    legs: journey.legs.map(tflLeg),
    disrupted: journey.isDisrupted,
    alternative: false,
    facts: [`${journey.legCount} ${journey.legCount === 1 ? 'leg' : 'legs'}`, ...fare],
  };
}

function legItem(leg: Leg, timeZone: string | undefined): HTMLLIElement {
  const mode = MODE_NAMES[leg.mode] ?? leg.mode;
  const walking = isWalk(leg.mode) && leg.distanceMeters !== undefined;
  return h(
    'li',
    { class: 'leg' },
    h('span', { class: 'time' }, clock(leg.start, timeZone)),
    h(
      'div',
      {},
      h('strong', {}, leg.line === undefined ? mode : `${mode} ${leg.line}`),
      walking ? ` ${distance(leg.distanceMeters!)}` : undefined,
      leg.detail === undefined ? undefined : h('span', { class: 'muted' }, ` · ${leg.detail}`),
      h('br'),
      `${leg.from} → ${leg.to}, until `,
      h('span', { class: 'time' }, clock(leg.end, timeZone)),
      leg.status === undefined ? undefined : h('br'),
      leg.status === undefined ? undefined : statusText(leg.status.value, leg.status.delaySeconds),
      leg.disrupted && leg.status === undefined ? h('br') : undefined,
      leg.disrupted && leg.status === undefined ? h('span', { class: 'danger' }, 'Disrupted') : undefined,
    ),
  );
}

/** One option: its times and what it takes in the summary, its legs when opened (the first is open). */
function optionCard(option: Option, index: number, timeZone: string | undefined): HTMLLIElement {
  const marks = [
    option.alternative ? h('span', { class: 'success' }, 'Alternative to a disrupted route') : undefined,
    option.disrupted ? h('span', { class: 'danger' }, 'Disrupted') : undefined,
  ].filter((mark) => mark !== undefined);
  const modes = option.legs.map((leg) => [MODE_NAMES[leg.mode] ?? leg.mode, leg.line].join(' ').trim());
  return h(
    'li',
    { class: 'card' },
    h(
      'details',
      { open: index === 0 ? '' : undefined },
      h(
        'summary',
        {},
        h(
          'strong',
          {},
          `Option ${index + 1}: `,
          h('span', { class: 'time' }, `${clock(option.start, timeZone)}–${clock(option.end, timeZone)}`),
          `, ${option.minutes} min`,
        ),
        h(
          'span',
          { class: 'row' },
          ...marks,
          h('span', { class: 'muted' }, [modes.join(' → '), ...option.facts].join(' · ')),
        ),
      ),
      h(
        'ol',
        { class: 'legs', 'aria-label': `Legs of option ${index + 1}` },
        ...option.legs.map((leg) => legItem(leg, timeZone)),
      ),
    ),
  );
}

function options(list: Option[], timeZone: string | undefined): HTMLElement {
  return list.length === 0
    ? h('p', {}, 'No route found.')
    : h('ol', { 'aria-label': 'Options' }, ...list.map((option, i) => optionCard(option, i, timeZone)));
}

const SIDES = [
  { field: 'from', heading: 'Which start did you mean?', list: 'fromLocationDisambiguation' },
  { field: 'to', heading: 'Which destination did you mean?', list: 'toLocationDisambiguation' },
] as const;

/** TfL's candidates for an ambiguous place: each a button that plans again with it. */
function suggestions(
  heading: string,
  field: 'from' | 'to',
  list: readonly JourneyDisambiguationSuggestion[],
  context: ViewContext,
): HTMLElement {
  const choice = (suggestion: JourneyDisambiguationSuggestion): HTMLElement => {
    const label =
      suggestion.placeType === undefined ? suggestion.name : `${suggestion.name} (${suggestion.placeType})`;
    const args = () => ({ ...context.input, [field]: suggestion.parameterValue });
    return h('li', {}, toolButton(context, label, 'planJourney', args) ?? label);
  };
  return h(
    'section',
    { 'aria-label': heading },
    h('h2', {}, heading),
    h('ul', { class: 'choices' }, ...list.map(choice)),
  );
}

function renderLondon(root: HTMLElement, plan: PlanJourneyOutput, context: ViewContext): void {
  const first = plan.topJourneys?.[0]?.legs;
  const title = first?.length ? `${first[0]!.from} → ${first.at(-1)!.to}` : 'London journey';
  root.append(
    h(
      'header',
      {},
      h('h1', {}, title),
      toolButton(context, 'Refresh', 'planJourney', () => context.input),
    ),
  );
  if (plan.topJourneys === null) {
    root.append(h('p', { role: 'alert' }, plan.message));
    for (const side of SIDES) {
      const list = plan[side.list];
      if (list?.length) root.append(suggestions(side.heading, side.field, list, context));
    }
    return;
  }
  root.append(options(plan.topJourneys.map(tflOption), context.timeZone));
}

function renderHelsinki(root: HTMLElement, plan: PlanTripOutput, context: ViewContext): void {
  const zone = context.timeZone;
  root.append(
    h(
      'header',
      {},
      h('h1', {}, `${placeName(plan.origin)} → ${placeName(plan.destination)}`),
      h('span', { class: 'muted' }, `Updated ${clock(plan.dataFreshness, zone)}`),
      toolButton(context, 'Refresh', 'plan_trip', () => context.input),
    ),
    options(plan.itineraries.map(hslOption), zone),
  );
  const alerts = serviceAlerts(plan.warnings);
  if (alerts !== undefined) root.append(alerts);
}

startView<Plan>({
  name: 'itinerary',
  render(root, plan, context) {
    if ('itineraries' in plan) renderHelsinki(root, plan, context);
    else renderLondon(root, plan, context);
  },
});
