// The floor of "an MCP tool that calls this upstream": a bare SDK server over stdio (in whichever era the
// client opens with) whose tools make the same upstream requests as each benchmark case, and return the
// upstream JSON as it is.
import { McpServer } from '@modelcontextprotocol/server';
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
