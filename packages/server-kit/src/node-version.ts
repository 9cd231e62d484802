/**
 * `@switchyard/server-kit/node-version`: what every bin runs before it loads the server. It imports nothing,
 * so an unsupported Node reaches it and gets a message.
 */

/**
 * The oldest Node.js release the servers run on (the packages' `engines`): better-sqlite3 needs Node 22's
 * Node-API, and undici 8 (the upstream client) needs 22.19.
 */
export const MINIMUM_NODE_VERSION = '22.19.0';

/** True when `version` (`v22.19.0` or `22.19.0`) is MINIMUM_NODE_VERSION or later. */
export function nodeVersionSupported(version: string): boolean {
  const parts = (text: string) => text.replace(/^v/, '').split('.').map(Number);
  const given = parts(version);
  const minimum = parts(MINIMUM_NODE_VERSION);
  for (let i = 0; i < minimum.length; i++) {
    const difference = (given[i] ?? 0) - minimum[i]!;
    if (difference !== 0) return difference > 0;
  }
  return true;
}

/**
 * True when the running Node is new enough. Otherwise it prints one line naming the command, the Node binary
 * and its version, sets exit code 1 and returns false: on an older Node the SQLite addon kills the process
 * with a segmentation fault, and no message, as soon as a database opens.
 */
export function nodeIsSupported(command: string): boolean {
  if (nodeVersionSupported(process.versions.node)) return true;
  process.stderr.write(
    `${command} needs Node.js ${MINIMUM_NODE_VERSION} or later; ${process.execPath} is ${process.version}\n`,
  );
  process.exitCode = 1;
  return false;
}
