#!/usr/bin/env node
// The floor for the benchmarks: a bare MCP SDK server with one echo tool, over stdio or (--http)
// Streamable HTTP with sessions, like switchyard. Plain JavaScript so that nothing but the SDK loads.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

function createServer() {
  const server = new McpServer({ name: 'bare-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns its text.',
      inputSchema: { text: z.string() },
      outputSchema: { text: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ text }) => ({ content: [{ type: 'text', text }], structuredContent: { text } }),
  );
  return server;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function serveHttp() {
  const transports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => transports.delete(transport.sessionId);
      await createServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  process.stderr.write(`listening at http://127.0.0.1:${httpServer.address().port}/mcp\n`);
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv.includes('--http')) await serveHttp();
else await createServer().connect(new StdioServerTransport());
