/**
 * `@switchyard/server-kit/bin-flags`: the command-line rules every Switchyard bin shares. It imports nothing,
 * so `switchyard` applies them before it loads the server (its usage errors answer at once).
 */

/**
 * Why `--host` or `--port` (those of `given`) stop a start without `--http`: over stdio they would be silently
 * ignored. Undefined when none is given.
 */
export function listenFlagsWithoutHttp(given: readonly string[]): string | undefined {
  if (given.length === 0) return undefined;
  const verb = given.length > 1 ? 'need' : 'needs';
  return `${given.join(' and ')} ${verb} --http: without it the server speaks stdio and listens on nothing`;
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
