// Cross-checks the mocks against the real captures and schemas in ../shared/upstream when that directory
// exists (CI has it); skipped in a clone without it. Nothing outside this test reads that directory.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import type { GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { otpSchema } from '../src/index.js';
import { VALID_DOCUMENTS } from './documents.js';
import { arr, hasUpstream, KEY, obj, postGraphQL, UPSTREAM_DIR, useFixedClockMocks } from './helpers.js';
import { selectionFromSample, shapeDifferences, stripUnknownFields } from './shape.js';

const readText = (name: string): string => readFileSync(resolve(UPSTREAM_DIR, name), 'utf8');
const readJson = (name: string): unknown => JSON.parse(readText(name)) as unknown;
const sample = (name: string): unknown => readJson(`samples/${name}`);

describe.skipIf(!hasUpstream)('fidelity to the real upstream captures', () => {
  const mocks = useFixedClockMocks();

  it('validates every document the tests send against both OTP schema files', () => {
    for (const file of ['otp-gtfs-schema.graphqls', 'otp-gtfs-schema.hsl-fork-2024-10.graphqls']) {
      const schema = buildSchema(readText(file));
      for (const [name, document] of Object.entries(VALID_DOCUMENTS)) {
        expect(validate(schema, parse(document)).map((e) => `${file} ${name}: ${e.message}`)).toEqual([]);
      }
    }
  });

  it('TfL ItineraryResult has the keys, kinds and formats of the real capture', async () => {
    const ours = obj(await mocks.tflGet('/Journey/JourneyResults/1000013/to/1000146?app_key=k'));
    const real = obj(sample('tfl-itinerary-walking-leg-real-2015.trimmed.json'));
    // Compare the capture's walking-only journey with ours (the fifth).
    const journeys = arr(ours['journeys']);
    const comparable = { ...ours, journeys: [journeys[4]] };
    expect(shapeDifferences(comparable, real)).toEqual([]);
  });

  it('TfL DisambiguationResult has the keys of the portal example and of the Highgate capture', async () => {
    mocks.tfl.scenario('disambiguation-both', { times: 2 });
    const ours = obj(await mocks.tflGet('/Journey/JourneyResults/Victoria/to/Highgate?app_key=k'));
    const portal = obj(sample('tfl-disambiguation-300-apiportal-example.json'));
    // The portal example's placeholder strings ("string") say nothing about formats; compare keys and kinds.
    const stopOption = (side: string) =>
      arr(obj(ours[side])['disambiguationOptions'])
        .map(obj)
        .find((o) => obj(o['place'])['placeType'] === 'StopPoint');
    const comparable = {
      ...ours,
      toLocationDisambiguation: {
        ...obj(ours['toLocationDisambiguation']),
        disambiguationOptions: [stopOption('toLocationDisambiguation')],
      },
      fromLocationDisambiguation: {
        ...obj(ours['fromLocationDisambiguation']),
        disambiguationOptions: [stopOption('fromLocationDisambiguation')],
      },
    };
    expect(shapeDifferences(comparable, portal, '$', ['$.searchCriteria.dateTime'])).toEqual([]);
    const highgate = obj(sample('tfl-disambiguation-300-fixture-highgate.json'));
    const ourHighgate = obj(await mocks.tflGet('/Journey/JourneyResults/SE192XE/to/Highgate?app_key=k'));
    const to = obj(ourHighgate['toLocationDisambiguation']);
    const stop = arr(to['disambiguationOptions'])
      .map(obj)
      .find((o) => o['parameterValue'] === '1000109');
    expect(
      shapeDifferences(
        { ...ourHighgate, toLocationDisambiguation: { ...to, disambiguationOptions: [stop] } },
        highgate,
      ),
    ).toEqual([]);
  });

  it('TfL ApiErrors have exactly the keys of the real 404 and 500', async () => {
    mocks.tfl.scenario('not-found', { times: 1 });
    const notFound = obj(await mocks.tflGet('/Journey/JourneyResults/a/to/b?app_key=k'));
    expect(Object.keys(notFound).sort()).toEqual(
      Object.keys(obj(sample('tfl-apierror-404-official-example.json'))).sort(),
    );
    mocks.tfl.scenario('server-error', { times: 1 });
    const serverError = obj(
      await mocks.tflGet('/Journey/JourneyResults/940GZZLUMHL/to/940GZZLUWRR?app_key=k'),
    );
    const observed = obj(sample('tfl-apierror-500-journeyresults-observed-2026.json'));
    expect(Object.keys(serverError)).toEqual(Object.keys(observed));
    expect(shapeDifferences(serverError, observed)).toEqual([]);
  });

  it("HSL stoptimes answer the capture's own selection with the same shape", async () => {
    const real = obj(
      obj(obj(sample('hsl-stop-stoptimesWithoutPatterns-real-2022.trimmed.json'))['data'])['stop'],
    );
    const schema = otpSchema();
    const stoptime = schema.getType('Stoptime') as GraphQLObjectType;
    const selection = selectionFromSample(schema, stoptime, obj(arr(real['stoptimes'])[0]));
    const query = `{ stop(id: "HSL:2431252") { url id stoptimes: stoptimesWithoutPatterns(numberOfDepartures: 4) ${selection} } }`;
    const { body } = await postGraphQL(mocks.dt, query);
    expect(body.errors).toBeUndefined();
    const ours = obj(obj(body.data)['stop']);
    expect(arr(ours['stoptimes'])).toHaveLength(4);
    expect(shapeDifferences(ours, real)).toEqual([]);
  });

  it("OTP's own planConnection snapshot query runs against the mock and answers in the same shape", async () => {
    const query = stripUnknownFields(
      otpSchema(),
      readText('samples/otp-planConnection-extended.query.graphql'),
    )
      .replace('latitude: 45.5552, longitude: -122.6534', 'latitude: 60.1719, longitude: 24.9314')
      .replace('latitude: 45.4908, longitude: -122.5519', 'latitude: 60.1989, longitude: 24.9335');
    mocks.dt.scenario('plan-realtime', { times: 1 });
    const { body } = await postGraphQL(mocks.dt, query);
    expect(body.errors).toBeUndefined();
    // Place.viaLocationType is newer than the schema core-utils ships; the query above no longer asks for it.
    const expected = JSON.parse(
      JSON.stringify(
        obj(sample('otp-planConnection-extended.expected-response.json'))['data'],
        (key, value: unknown) => (key === 'viaLocationType' ? undefined : value),
      ),
    ) as unknown;
    expect(shapeDifferences(body.data, expected)).toEqual([]);
    const legacy = await postGraphQL(
      mocks.dt,
      readText('samples/otp-plan-legacy.query.graphql')
        .replace('52.3092, lon: 13.0291', '60.1719, lon: 24.9314')
        .replace('52.5147, lon: 13.3927', '60.1989, lon: 24.9335'),
    );
    expect(legacy.body.errors).toBeUndefined();
    expect(
      shapeDifferences(legacy.body.data, obj(obj(sample('otp-plan-legacy.expected-response.json'))['data'])),
    ).toEqual([]);
  });

  it('Pelias features have the keys of the real station, venue and stop features', async () => {
    const get = async (query: string) =>
      obj(
        await (
          await fetch(`${mocks.dt.geocodingUrl}/search?${query}&digitransit-subscription-key=${KEY}`)
        ).json(),
      );
    const real = obj(sample('digitransit-geocoding-search-airport-real.trimmed.json'));
    const [realStation, realVenue] = arr(real['features']);
    const station = await get('text=Kamppi&layers=station');
    const venue = await get('text=Eduskuntatalo&layers=venue');
    // Boundaries echo request parameters; parsed_text is the parser's reading of the text.
    const ignore = [
      '$.geocoding.query.boundary.polygon',
      '$.geocoding.query.boundary.country',
      '$.geocoding.query.parsed_text',
    ];
    expect(
      shapeDifferences(
        { ...station, features: [arr(station['features'])[0]] },
        { ...real, features: [realStation] },
        '$',
        ignore,
      ),
    ).toEqual([]);
    expect(
      shapeDifferences(
        { ...venue, features: [arr(venue['features'])[0]] },
        { ...real, features: [realVenue] },
        '$',
        ignore,
      ),
    ).toEqual([]);
    const stop = await get('text=Latokaski&layers=stop');
    expect(
      shapeDifferences(arr(stop['features'])[0], sample('digitransit-geocoding-stop-feature-fixture.json')),
    ).toEqual([]);
  });
});
