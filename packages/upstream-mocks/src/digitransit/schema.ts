// OTP's GTFS GraphQL schema, from the introspection result that @opentripplanner/core-utils ships.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildClientSchema } from 'graphql';
import type { GraphQLSchema, IntrospectionQuery } from 'graphql';

const require = createRequire(import.meta.url);

/** Absolute path of `@opentripplanner/core-utils/src/otpSchema.json`. */
export const OTP_SCHEMA_JSON_PATH = require.resolve('@opentripplanner/core-utils/src/otpSchema.json');

let cached: GraphQLSchema | undefined;

/** The OTP schema (built once per process; immutable). */
export function otpSchema(): GraphQLSchema {
  if (!cached) {
    const parsed = JSON.parse(readFileSync(OTP_SCHEMA_JSON_PATH, 'utf8')) as
      { data: IntrospectionQuery } | IntrospectionQuery;
    cached = buildClientSchema('data' in parsed ? parsed.data : parsed);
  }
  return cached;
}
