#!/usr/bin/env node
// switchyard-journey: the journey tools as a standalone MCP server (stdio by default, --http for HTTP).
import module from 'node:module';

// Node 22.1+ can cache compiled code between starts, which shortens every later start; Node 20 cannot.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const [{ runStandaloneServer }, { journeyDomain }] = await Promise.all([
  import('@switchyard/server-kit'),
  import('./domain.js'),
]);

runStandaloneServer({ name: 'switchyard-journey', domain: journeyDomain });
