#!/usr/bin/env node
// switchyard-transit: the transit tools as a standalone MCP server (stdio by default, --http for HTTP).
import { runStandaloneServer } from '@switchyard/server-kit';
import { transitDomain } from './domain.js';

runStandaloneServer({ name: 'switchyard-transit', domain: transitDomain });
