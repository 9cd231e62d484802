/**
 * The views, by name: which exist and the `ui://` URI each is served under. No DOM, no Node: the server side
 * (index.ts) and the views' own code both read it.
 */
export const VIEW_TITLES = {
  'line-status': 'London line status',
  'departure-board': 'Departure board',
  itinerary: 'Trip itineraries',
  'journey-timeline': 'Journey timeline',
  'run-dashboard': 'Launch run dashboard',
} as const;

export type ViewName = keyof typeof VIEW_TITLES;

export const VIEW_NAMES = Object.keys(VIEW_TITLES) as ViewName[];

/** The most bytes a view's page may take (the limit); the build fails on a larger one. */
export const MAX_VIEW_BYTES = 150 * 1024;

/** Short on purpose: every tool that has a view carries this URI in tools/list, in every model's context. */
export function viewUri(name: ViewName): string {
  return `ui://switchyard/${name}`;
}

/**
 * Where a view finds the tools it may call: the JSON of {name in the domain: name the client calls}, only
 * for the tools this server lists (read-only, allow and deny lists, prefixes applied). A button whose tool
 * is missing is not shown.
 */
export const CALLABLE_TOOLS_ELEMENT_ID = 'switchyard-tools';
