#!/usr/bin/env node
// switchyard: every Switchyard domain in one MCP server (stdio by default, --http for Streamable HTTP).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), process.env);
