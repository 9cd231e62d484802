import { ALLOW_LIST_SETTINGS } from './bin-flags.js';

/**
 * What a bin's user sets for each `runServer` option a start-up error or a start-up hint can name: every bin
 * reads its bearer token from SWITCHYARD_TOKEN and takes --host, --port and the allow-lists.
 */
export const BIN_SETTING_NAMES: Readonly<Record<string, string>> = {
  'http.token': 'SWITCHYARD_TOKEN',
  'http.host': '--host',
  'http.port': '--port',
  ...Object.fromEntries(
    Object.entries(ALLOW_LIST_SETTINGS).map(([option, { flag, variable }]) => [
      `http.${option}`,
      `${flag} (${variable})`,
    ]),
  ),
};

/**
 * A start-up error of `runServer` as the person who ran a bin reads it: without the `runServer:` prefix, and
 * with every option named as they set it (`http.token` becomes SWITCHYARD_TOKEN, `http.port` --port).
 * `names` adds or replaces names, e.g. the combined server's `--port (SWITCHYARD_PORT)`.
 */
export function forPeople(message: string, names: Readonly<Record<string, string>> = {}): string {
  // Option and variable names are letters, digits, underscores and dots: only the dots need escaping.
  return Object.entries({ ...BIN_SETTING_NAMES, ...names }).reduce(
    (text, [option, name]) => text.replace(new RegExp(`\\b${option.replaceAll('.', '\\.')}\\b`, 'g'), name),
    message.replace(/^runServer: /, ''),
  );
}
