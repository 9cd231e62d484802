import { createRequire } from 'node:module';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** The version of `@switchyard/server` (what `switchyard --version` prints and the MCP server reports). */
export const VERSION = version;
