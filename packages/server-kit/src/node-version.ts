/**
 * `@switchyard/server-kit/node-version`: what every bin runs before it loads the server. It imports nothing,
 * so an unsupported Node reaches it and gets a message.
 */

/** The oldest Node.js release the servers run on (the packages' `engines`): better-sqlite3 needs its Node-API. */
export const MINIMUM_NODE_MAJOR = 22;

/**
 * True when the running Node is new enough. Otherwise it prints one line naming the command, the Node binary
 * and its version, sets exit code 1 and returns false: on an older Node the SQLite addon kills the process
 * with a segmentation fault, and no message, as soon as a database opens.
 */
export function nodeIsSupported(command: string): boolean {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= MINIMUM_NODE_MAJOR) return true;
  process.stderr.write(
    `${command} needs Node.js ${MINIMUM_NODE_MAJOR} or later; ${process.execPath} is ${process.version}\n`,
  );
  process.exitCode = 1;
  return false;
}
