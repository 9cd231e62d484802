// The floor of "an MCP tool that calls this upstream": a bare SDK server over stdio (in whichever era the
// client opens with) whose tools make the same upstream request as planJourney, get_departures and
// plan_trip, and return the upstream JSON as it is.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { departuresRequest, journeyRequest, targetsFromEnv, tripRequest } from './upstream-requests.js';

const targets = targetsFromEnv();
const tools = { planJourney: journeyRequest, get_departures: departuresRequest, plan_trip: tripRequest };

serveStdio(() => {
  const server = new McpServer({ name: 'bare-floor', version: '0.0.0' });
  for (const [name, request] of Object.entries(tools)) {
    server.registerTool(name, { description: `Bare ${name}` }, async () => {
      const body = await request(targets);
      return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
    });
  }
  return server;
});
