#!/usr/bin/env node
// The floor for the benchmarks: a bare MCP SDK (v2) server with one echo tool, over stdio or (--http)
// Streamable HTTP, stateless in both protocol eras like switchyard (a fresh server instance per request).
// Plain JavaScript so that nothing but the SDK loads.
import http from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function createServer() {
  const server = new McpServer({ name: 'bare-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns its text.',
      inputSchema: z.object({ text: z.string() }),
      outputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ text }) => ({ content: [{ type: 'text', text }], structuredContent: { text } }),
  );
  return server;
}

async function serveHttp() {
  const handler = toNodeHandler(createMcpHandler(createServer));
  const httpServer = http.createServer((req, res) => void handler(req, res));
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  process.stderr.write(`listening at http://127.0.0.1:${httpServer.address().port}/mcp\n`);
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv.includes('--http')) await serveHttp();
else serveStdio(createServer);
