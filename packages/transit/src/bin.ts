#!/usr/bin/env node
// switchyard-transit: the transit tools as a standalone MCP server (stdio by default, --http for HTTP).
import module from 'node:module';

// Node 22.1+ can cache compiled code between starts, which shortens every later start; Node 20 cannot.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const [{ runStandaloneServer }, { transitDomain }] = await Promise.all([
  import('@switchyard/server-kit'),
  import('./domain.js'),
]);

runStandaloneServer({
  name: 'switchyard-transit',
  domain: transitDomain,
  help: [
    'TRANSIT_PROVIDERS picks the providers (default tfl,hsl), and each one enabled needs its key:',
    '  TFL_API_KEY                    tfl: London (planJourney, get_london_arrivals, get_line_status, ...)',
    '  DIGITRANSIT_SUBSCRIPTION_KEY   hsl: Helsinki (get_departures, plan_trip, find_stops)',
    'With one key only, set TRANSIT_PROVIDERS=tfl or TRANSIT_PROVIDERS=hsl. Every variable: the README.',
  ],
});
