#!/usr/bin/env node
// switchyard: every Switchyard domain in one MCP server (stdio by default, --http for Streamable HTTP).
import module from 'node:module';

// Node 22.1+ can cache compiled code between starts, which shortens every later start; Node 20 cannot.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./main.js');

process.exitCode = await main(process.argv.slice(2), process.env);
