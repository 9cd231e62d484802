#!/usr/bin/env node
// switchyard-journey: the journey tools as a standalone MCP server (stdio by default, --http for HTTP).
import { runStandaloneServer } from '@switchyard/server-kit';
import { journeyDomain } from './domain.js';

runStandaloneServer({ name: 'switchyard-journey', domain: journeyDomain });
