import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './json-schema.js';

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
addFormats.default(ajv);
const compiled = new WeakMap<JsonSchema, (value: unknown) => boolean>();

/**
 * Whether `value` is valid against the published JSON Schema, decided by a real validator (Ajv, draft
 * 2020-12 with formats) rather than by the generator: the fuzzer's own bugs cannot pass for the server's.
 */
export function isValidAgainst(schema: JsonSchema, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const fn = ajv.compile(schema);
    validate = (v: unknown) => fn(v) === true;
    compiled.set(schema, validate);
  }
  return validate(value);
}
