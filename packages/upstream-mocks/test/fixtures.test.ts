// The files under fixtures/ are snapshots of what the mocks answer at a fixed clock, for parser tests
// elsewhere. This test keeps them in step with the mocks: UPDATE_FIXTURES=1 rewrites them (then run prettier).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { FROM, PLAN, STOP_DEPARTURES, TO } from './documents.js';
import { KEY, PACKAGE_DIR, postGraphQL, useFixedClockMocks } from './helpers.js';

const UPDATE = process.env['UPDATE_FIXTURES'] === '1';
const fixturePath = (name: string): string => resolve(PACKAGE_DIR, 'fixtures', name);

function checkJson(name: string, value: unknown): void {
  const path = fixturePath(name);
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  }
  expect(existsSync(path), `${name} is missing: run with UPDATE_FIXTURES=1`).toBe(true);
  expect(
    JSON.parse(readFileSync(path, 'utf8')) as unknown,
    `${name} is stale: run with UPDATE_FIXTURES=1`,
  ).toEqual(value);
}

function checkGraphQL(name: string, document: string): void {
  const path = fixturePath(name);
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${print(parse(document))}\n`);
  }
  expect(print(parse(readFileSync(path, 'utf8')))).toBe(print(parse(document)));
}

describe('fixtures/ snapshots', () => {
  const mocks = useFixedClockMocks();

  it('tfl/', async () => {
    checkJson(
      'tfl/itinerary-result.json',
      await mocks.tflGet('/Journey/JourneyResults/1000129/to/1000254?app_key=YOUR_APP_KEY'),
    );
    checkJson(
      'tfl/arrivals.json',
      await mocks.tflGet('/StopPoint/940GZZLUOXC/Arrivals?app_key=YOUR_APP_KEY'),
    );
    mocks.tfl.scenario('disambiguation-both', { times: 1 });
    checkJson(
      'tfl/disambiguation-300.json',
      await mocks.tflGet('/Journey/JourneyResults/Victoria/to/Highgate?app_key=YOUR_APP_KEY'),
    );
    mocks.tfl.scenario('not-found', { times: 1 });
    checkJson(
      'tfl/apierror-404.json',
      await mocks.tflGet('/Journey/JourneyResults/1000129/to/1000254?app_key=YOUR_APP_KEY'),
    );
    mocks.tfl.scenario('server-error', { times: 1 });
    checkJson(
      'tfl/apierror-500.json',
      await mocks.tflGet('/Journey/JourneyResults/940GZZLUMHL/to/940GZZLUWRR?app_key=YOUR_APP_KEY'),
    );
  });

  it('digitransit/', async () => {
    const departureVariables = { id: 'HSL:1040129', n: 8, omitCanceled: false };
    checkGraphQL('digitransit/stop-departures.graphql', STOP_DEPARTURES);
    checkJson('digitransit/stop-departures.variables.json', departureVariables);
    checkJson(
      'digitransit/stop-departures.response.json',
      (await postGraphQL(mocks.dt, STOP_DEPARTURES, departureVariables)).body,
    );
    const planVariables = { origin: FROM, destination: TO, first: 3 };
    checkGraphQL('digitransit/plan-connection.graphql', PLAN);
    checkJson('digitransit/plan-connection.variables.json', planVariables);
    checkJson(
      'digitransit/plan-connection.response.json',
      (await postGraphQL(mocks.dt, PLAN, planVariables)).body,
    );
    mocks.dt.scenario('plan-no-transit-connection', { times: 1 });
    checkJson(
      'digitransit/plan-connection.routing-error.response.json',
      (await postGraphQL(mocks.dt, PLAN, planVariables)).body,
    );
    checkJson(
      'digitransit/validation-error.response.json',
      (await postGraphQL(mocks.dt, '{\n  stop(id: "HSL:1040129") {\n    name\n    platfromCode\n  }\n}'))
        .body,
    );
  });

  it('geocoding/', async () => {
    const response = await fetch(`${mocks.dt.geocodingUrl}/search?text=kamppi&size=4`, {
      headers: { 'digitransit-subscription-key': KEY },
    });
    checkJson('geocoding/search-kamppi.json', await response.json());
  });
});
