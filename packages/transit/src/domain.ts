import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineDomain } from '@switchyard/server-kit';
import { describeDatabase } from '@switchyard/server-kit/runtime';
import { loadConfig } from './config.js';
import { openTransit } from './open.js';
import { DATABASE_URL_VARIABLE, POSTGRES_MIGRATIONS_FOLDER } from './places/database.js';
import { PROVIDER_PLACES } from './providers.js';
import { commutePrompt } from './prompts/commute.js';
import { findStopsTool } from './tools/find-stops.js';
import { getDeparturesTool } from './tools/get-departures.js';
import { findLondonStopsTool } from './tools/find-london-stops.js';
import { getLineStatusTool } from './tools/get-line-status.js';
import { getLondonArrivalsTool } from './tools/get-london-arrivals.js';
import { planJourneyTool } from './tools/plan-journey.js';
import { planTripTool } from './tools/plan-trip.js';
import { savedPlaceTools } from './tools/saved-places.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * The transit domain: planJourney and get_london_arrivals (TfL) when the `tfl` provider is configured;
 * get_departures, plan_trip and find_stops (HSL) when `hsl` is; the saved-place tools always. Its
 * configuration comes from the environment (`loadConfig`); opening it opens and migrates transit.sqlite in
 * the server's data directory.
 */
export const transitDomain = defineDomain({
  name: 'transit',
  version,
  title: 'London and Helsinki transit',
  instructions:
    'Public transport in London (TfL) and the Helsinki region (HSL), with places a person saves between ' +
    'conversations. planJourney plans London journeys between names, postcodes or coordinates; ' +
    'get_london_arrivals lists the next arrivals at a London stop. In Helsinki, ' +
    'find_stops finds stop ids, get_departures lists the next departures at a stop, and plan_trip plans ' +
    'itineraries between coordinates or saved places. save_user_variable saves a place or stop under a name ' +
    'that get_departures and plan_trip then accept as a label; get_user_variables lists them.',
  toolPrefix: 'transit',
  // OAuth: one scope for every transit tool, saved places included (they are the caller's own).
  scopes: { read: 'transit', write: 'transit' },
  // Drawn for Switchyard (MIT, like the code); shipped in the package's icons/ folder.
  icon: readFileSync(new URL('../icons/transit.svg', import.meta.url), 'utf8'),
  // Saved places move to PostgreSQL with TRANSIT_DATABASE_URL (or SWITCHYARD_DATABASE_URL).
  postgres: { variable: DATABASE_URL_VARIABLE, migrationsFolder: POSTGRES_MIGRATIONS_FOLDER },
  config: loadConfig,
  describe(config, _dataDir, why) {
    const providers = config.providers.map((p) => `${p} (${PROVIDER_PLACES[p]})`).join(' and ');
    const places =
      config.database === undefined
        ? ''
        : `; saved places in PostgreSQL at ${describeDatabase(config.database.url)} (${config.database.variable})`;
    return `providers ${providers}: ${why}${places}`;
  },
  open: (config, runtime) => openTransit(config, runtime),
  tools: [
    planJourneyTool,
    getLondonArrivalsTool,
    getLineStatusTool,
    findLondonStopsTool,
    getDeparturesTool,
    planTripTool,
    findStopsTool,
    ...savedPlaceTools,
  ],
  prompts: [commutePrompt],
});
