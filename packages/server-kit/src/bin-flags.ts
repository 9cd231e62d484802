/**
 * `@switchyard/server-kit/bin-flags`: the command-line rules every Switchyard bin shares. It imports nothing,
 * so `switchyard` applies them before it loads the server (its usage errors answer at once).
 */

/**
 * The allow-lists every bin takes, by `runServer`'s `http` option: the flag, and the variable read when the
 * flag is absent.
 */
export const ALLOW_LIST_SETTINGS = {
  allowedHosts: { flag: '--allowed-hosts', variable: 'SWITCHYARD_ALLOWED_HOSTS' },
  allowedOrigins: { flag: '--allowed-origins', variable: 'SWITCHYARD_ALLOWED_ORIGINS' },
} as const;

/** The flags every bin takes that only mean something with `--http`. */
export const HTTP_ONLY_FLAGS: readonly string[] = [
  '--host',
  '--port',
  ...Object.values(ALLOW_LIST_SETTINGS).map(({ flag }) => flag),
];

/**
 * Why the HTTP-only flags of `given` (HTTP_ONLY_FLAGS) stop a start without `--http`: over stdio they would be
 * silently ignored. Undefined when none is given.
 */
export function httpOnlyFlagsWithoutHttp(given: readonly string[]): string | undefined {
  if (given.length === 0) return undefined;
  const last = given.length - 1;
  const named = last === 0 ? given[0] : `${given.slice(0, last).join(', ')} and ${given[last]}`;
  const verb = given.length > 1 ? 'need' : 'needs';
  return `${named} ${verb} --http: without it the server speaks stdio and listens on nothing`;
}

/** The comma-separated list in `raw`, trimmed, without empty entries and duplicates. */
export function parseList(raw: string): string[] {
  return [
    ...new Set(
      raw
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    ),
  ];
}

/**
 * A list setting's value (`source` names the flag or variable it came from): an empty list is refused with
 * `failure`, since it would allow nothing.
 */
export function parseNonEmptyList(
  raw: string,
  source: string,
  failure: new (message: string) => Error = Error,
): string[] {
  const list = parseList(raw);
  if (list.length === 0) throw new failure(`${source} must be a comma-separated list, got "${raw}"`);
  return list;
}
