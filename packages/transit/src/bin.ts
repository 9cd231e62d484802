#!/usr/bin/env node
// switchyard-transit: the transit tools as a standalone MCP server (stdio by default, --http for HTTP).
import { runStandaloneServer } from '@switchyard/server-kit';
import { loadConfig } from './config.js';
import { createTransitModule } from './module.js';

runStandaloneServer({
  name: 'switchyard-transit',
  createModule: ({ dataDir, logger }) => createTransitModule(loadConfig(), { dataDir, logger }),
});
