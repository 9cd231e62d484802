// The floor of "an MCP tool that calls this upstream": a bare SDK server whose tools make the same upstream
// requests as each benchmark case and return the upstream JSON as it is, served as a user of the SDK serves
// it: over stdio (serveStdio), or with --http over Streamable HTTP by the SDK's own stateless handler
// (createMcpHandler, on node:http through @modelcontextprotocol/node's toNodeHandler), in whichever era the
// client opens with; and an `echo` tool that makes no request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  arrivalsRequest,
  departuresRequest,
  lineStatusRequest,
  londonStopsRequest,
  findStopsRequest,
  journeyRequest,
  namedTripRequest,
  targetsFromEnv,
  tripRequest,
} from './upstream-requests.js';

const targets = targetsFromEnv();
/** One bare tool per benchmark case (plan_trip between two names has its own, as its upstream calls differ). */
const tools = {
  planJourney: journeyRequest,
  get_departures: departuresRequest,
  plan_trip: tripRequest,
  plan_trip_named: namedTripRequest,
  find_stops: findStopsRequest,
  get_london_arrivals: arrivalsRequest,
  get_line_status: lineStatusRequest,
  find_london_stops: londonStopsRequest,
};

function createServer(): McpServer {
  const server = new McpServer({ name: 'bare-floor', version: '0.0.0' });
  for (const [name, request] of Object.entries(tools)) {
    server.registerTool(name, { description: `Bare ${name}` }, async () => {
      const body = await request(targets);
      return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
    });
  }
  // No upstream request: a call of it is the MCP round trip alone, the least any SDK-served tool adds.
  server.registerTool('echo', { description: 'Answers at once' }, () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
  return server;
}

/** On a free loopback port; the log line names the URL as the bin's does (bench/servers.ts reads it). */
async function serveHttp(): Promise<void> {
  const handler = toNodeHandler(createMcpHandler(createServer));
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  process.stderr.write(`${JSON.stringify({ msg: 'listening', url })}\n`);
  // An exit rather than death by the signal, so that a --cpu-prof run writes its profile.
  process.once('SIGTERM', () => process.exit(0));
}

if (process.argv.includes('--http')) await serveHttp();
else serveStdio(createServer);
