#!/usr/bin/env node
// switchyard-journey: the journey tools as a standalone MCP server (stdio by default, --http for HTTP).
import { runStandaloneServer } from '@switchyard/server-kit';
import { loadJourneyConfig } from './config.js';
import { createJourneyModule } from './module.js';

runStandaloneServer({
  name: 'switchyard-journey',
  createModule: ({ dataDir }) => createJourneyModule({ ...loadJourneyConfig(), dataDir }),
});
