import { ENVIRONMENT_OF, FLAG_OF, parseCommandLine, type Env } from './cli.js';

/**
 * server-kit names its options (`http.port`) and the data folder's variable, in start-up errors and hints; a
 * person running switchyard knows the flag and its variable.
 */
const HTTP_SETTINGS = ['host', 'port', 'allowedHosts', 'allowedOrigins'] as const;
const flagAndVariable = (key: keyof typeof FLAG_OF) => `${FLAG_OF[key]} (${ENVIRONMENT_OF[key]})`;
const NAMES_FOR_PEOPLE = {
  ...Object.fromEntries(HTTP_SETTINGS.map((key) => [`http.${key}`, flagAndVariable(key)])),
  [ENVIRONMENT_OF.dataDir]: flagAndVariable('dataDir'),
};

/** A start-up error in the words of switchyard's flags and variables (server-kit's `forPeople`). */
async function forPeople(message: string): Promise<string> {
  const { forPeople: inWordsOf } = await import('@switchyard/server-kit');
  return inWordsOf(message, NAMES_FOR_PEOPLE);
}

/** `switchyard migrate`: one line per domain migrated, or why there was nothing to do. */
async function migrate(env: Env): Promise<number> {
  try {
    const { migrateConfiguredDomains } = await import('./migrate.js');
    for (const line of await migrateConfiguredDomains(env)) process.stdout.write(`${line}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`switchyard migrate: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/**
 * The `switchyard` command: parse flags and environment, then serve until a signal (or the end of stdin).
 * Returns the exit code to use once the event loop drains; usage and start-up errors print one line.
 */
export async function main(argv: readonly string[], env: Env): Promise<number> {
  const outcome = parseCommandLine(argv, env);
  if (outcome.action === 'exit') {
    (outcome.exitCode === 0 ? process.stdout : process.stderr).write(outcome.output);
    return outcome.exitCode;
  }
  if (outcome.action === 'migrate') return migrate(env);
  try {
    // Loaded only now, so --help, --version and usage errors answer at once.
    const [{ startSwitchyard }, { boundMemory }] = await Promise.all([
      import('./index.js'),
      import('@switchyard/server-kit'),
    ]);
    boundMemory(env);
    // Clients that start their own copy over stdio run this same bin with this same Node.
    const stdioCommand = { command: process.execPath, args: process.argv.slice(1, 2) };
    await startSwitchyard({ ...outcome.settings, env, stdioCommand, settingNames: NAMES_FOR_PEOPLE });
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`switchyard: ${await forPeople(message)}\n`);
    return 1;
  }
}
