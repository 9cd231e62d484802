// The files under fixtures/ are snapshots of what the mocks answer at a fixed clock, for parser tests
// elsewhere. This test keeps them in step with the mocks: UPDATE_FIXTURES=1 rewrites them (then run prettier).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse, print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDigitransitMock, startTflMock } from '../src/index.js';
import type { DigitransitMock, TflMock } from '../src/index.js';
import { FROM, PLAN, STOP_DEPARTURES, TO } from './documents.js';
import { fixedClock, KEY, PACKAGE_DIR, postGraphQL } from './helpers.js';

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
  let tfl: TflMock;
  let dt: DigitransitMock;
  beforeAll(async () => {
    tfl = await startTflMock({ now: fixedClock });
    dt = await startDigitransitMock({ now: fixedClock });
  });
  afterAll(async () => {
    await tfl.close();
    await dt.close();
  });

  const tflBody = async (path: string): Promise<unknown> => (await fetch(`${tfl.url}${path}`)).json();

  it('tfl/', async () => {
    checkJson(
      'tfl/itinerary-result.json',
      await tflBody('/Journey/JourneyResults/1000129/to/1000254?app_key=YOUR_APP_KEY'),
    );
    tfl.scenario('disambiguation-both', { times: 1 });
    checkJson(
      'tfl/disambiguation-300.json',
      await tflBody('/Journey/JourneyResults/Victoria/to/Highgate?app_key=YOUR_APP_KEY'),
    );
    tfl.scenario('not-found', { times: 1 });
    checkJson(
      'tfl/apierror-404.json',
      await tflBody('/Journey/JourneyResults/1000129/to/1000254?app_key=YOUR_APP_KEY'),
    );
    tfl.scenario('server-error', { times: 1 });
    checkJson(
      'tfl/apierror-500.json',
      await tflBody('/Journey/JourneyResults/940GZZLUMHL/to/940GZZLUWRR?app_key=YOUR_APP_KEY'),
    );
  });

  it('digitransit/', async () => {
    const departureVariables = { id: 'HSL:1040129', n: 8, omitCanceled: false };
    checkGraphQL('digitransit/stop-departures.graphql', STOP_DEPARTURES);
    checkJson('digitransit/stop-departures.variables.json', departureVariables);
    checkJson(
      'digitransit/stop-departures.response.json',
      (await postGraphQL(dt, STOP_DEPARTURES, departureVariables)).body,
    );
    const planVariables = { origin: FROM, destination: TO, first: 3 };
    checkGraphQL('digitransit/plan-connection.graphql', PLAN);
    checkJson('digitransit/plan-connection.variables.json', planVariables);
    checkJson('digitransit/plan-connection.response.json', (await postGraphQL(dt, PLAN, planVariables)).body);
    dt.scenario('plan-no-transit-connection', { times: 1 });
    checkJson(
      'digitransit/plan-connection.routing-error.response.json',
      (await postGraphQL(dt, PLAN, planVariables)).body,
    );
    checkJson(
      'digitransit/validation-error.response.json',
      (await postGraphQL(dt, '{\n  stop(id: "HSL:1040129") {\n    name\n    platfromCode\n  }\n}')).body,
    );
  });

  it('geocoding/', async () => {
    const response = await fetch(`${dt.geocodingUrl}/search?text=kamppi&size=4`, {
      headers: { 'digitransit-subscription-key': KEY },
    });
    checkJson('geocoding/search-kamppi.json', await response.json());
  });
});
