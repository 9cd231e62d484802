// Every GraphQL document the package sends validates against OTP's schema as @opentripplanner/core-utils ships
// it, and against the upstream and HSL-fork .graphqls files (test/fixtures/otp, with their sources).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildClientSchema,
  buildSchema,
  parse,
  validate,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { OTP_SCHEMA_JSON_PATH } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_DOCUMENTS } from '../src/hsl/queries.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const OTP_SCHEMAS = path.join(here, 'fixtures', 'otp');

function coreUtilsSchema(): GraphQLSchema {
  const json = JSON.parse(fs.readFileSync(OTP_SCHEMA_JSON_PATH, 'utf8')) as
    { data: IntrospectionQuery } | IntrospectionQuery;
  return buildClientSchema('data' in json ? json.data : json);
}

const schemas: [string, () => GraphQLSchema][] = [
  ['@opentripplanner/core-utils otpSchema.json', coreUtilsSchema],
];
for (const file of ['otp-gtfs-schema.graphqls', 'otp-gtfs-schema.hsl-fork-2024-10.graphqls']) {
  schemas.push([file, () => buildSchema(fs.readFileSync(path.join(OTP_SCHEMAS, file), 'utf8'))]);
}

describe.each(schemas)('GraphQL documents against %s', (_name, load) => {
  const schema = load();
  it.each(Object.entries(GRAPHQL_DOCUMENTS))('%s is valid', (_doc, document) => {
    expect(validate(schema, parse(document)).map((error) => error.message)).toEqual([]);
  });

  it('the validation can fail (a field OTP does not have is reported)', () => {
    expect(validate(schema, parse('{ stop(id: "HSL:1") { noSuchField } }'))).not.toHaveLength(0);
  });
});

it('plan_trip uses planConnection, not the deprecated plan', () => {
  expect(GRAPHQL_DOCUMENTS.PlanTrip).toMatch(/planConnection\(/);
  expect(GRAPHQL_DOCUMENTS.PlanTrip).not.toMatch(/\bplan\(/);
});
