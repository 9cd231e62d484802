import { getNamedType, isInterfaceType, isLeafType, isNonNullType, isUnionType } from 'graphql';
import type { GraphQLObjectType, GraphQLOutputType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpSchema, OTP_SCHEMA_JSON_PATH, startDigitransitMock, validateOtpQuery } from '../src/index.js';
import type { DigitransitMock } from '../src/index.js';
import { VALID_DOCUMENTS } from './documents.js';
import { fixedClock, postGraphQL } from './helpers.js';

const schema = otpSchema();

/** Every argument-free field down to `depth`, aliasing fields inside fragments so they never conflict. */
function selectAll(type: GraphQLOutputType, depth: number, path: readonly string[]): string | null {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (depth <= 0) return null;
  if (isUnionType(named) || isInterfaceType(named)) {
    const parts = schema
      .getPossibleTypes(named)
      .filter((t) => !path.includes(t.name))
      .map((t) => {
        const inner = fields(t, depth, path, `${t.name}_`);
        return inner ? `... on ${t.name} ${inner}` : null;
      })
      .filter((p): p is string => p !== null);
    return `{ __typename ${parts.join(' ')} }`;
  }
  return fields(named as GraphQLObjectType, depth, path, '');
}

function fields(
  type: GraphQLObjectType,
  depth: number,
  path: readonly string[],
  prefix: string,
): string | null {
  const out: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.deprecationReason) continue;
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (!isLeafType(named) && path.includes(named.name)) continue;
    const inner = selectAll(field.type, depth - 1, [...path, type.name]);
    if (inner === null) continue;
    out.push(`${prefix ? `${prefix}${field.name}: ` : ''}${field.name} ${inner}`);
  }
  return out.length > 0 ? `{ ${out.join(' ')} }` : null;
}

describe('the OTP schema', () => {
  it('comes from @opentripplanner/core-utils', () => {
    expect(OTP_SCHEMA_JSON_PATH).toMatch(/@opentripplanner[\\/]core-utils[\\/]src[\\/]otpSchema\.json$/);
    expect(schema.getQueryType()?.getFields()['planConnection']).toBeDefined();
  });

  it('accepts every document the tests send', () => {
    for (const [name, document] of Object.entries(VALID_DOCUMENTS)) {
      expect([name, validateOtpQuery(document)]).toEqual([name, []]);
    }
    expect(validateOtpQuery('{ stop(id: "HSL:1") { nme } }')).toEqual([
      "Validation error (FieldUndefined@[stop/nme]) : Field 'nme' in type 'Stop' is undefined",
    ]);
  });
});

describe('execution over the whole schema', () => {
  let dt: DigitransitMock;
  beforeAll(async () => {
    dt = await startDigitransitMock({ now: fixedClock });
  });
  afterAll(async () => {
    await dt.close();
  });

  it.each([
    [
      'stop',
      `{ stop(id: "HSL:1020502") ${selectAll(schema.getType('Stop') as GraphQLObjectType, 4, ['QueryType']) ?? ''} }`,
    ],
    [
      'station',
      `{ station(id: "HSL:1000202") ${selectAll(schema.getType('Stop') as GraphQLObjectType, 3, ['QueryType']) ?? ''} }`,
    ],
    [
      'planConnection',
      `{ planConnection(origin: { location: { coordinate: { latitude: 60.1719, longitude: 24.9314 } } }, destination: { location: { coordinate: { latitude: 60.1989, longitude: 24.9335 } } }, preferences: { accessibility: { wheelchair: { enabled: true } }, transit: { timetable: { includeRealTimeCancellations: true } } }) ${selectAll(schema.getType('PlanConnection') as GraphQLObjectType, 6, ['QueryType']) ?? ''} }`,
    ],
  ])('every argument-free field of %s resolves without errors', async (_name, query) => {
    expect(validateOtpQuery(query)).toEqual([]);
    for (const scenario of ['default', 'plan-cancelled-leg', 'plan-scheduled'] as const) {
      dt.scenario(scenario);
      const { body } = await postGraphQL(dt, query);
      expect(body.errors).toBeUndefined();
      expect(body.data).not.toBeNull();
    }
  });
});
