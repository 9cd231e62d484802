// Compares the shape of a mock response with a real capture: same keys, same JSON kinds, same string formats.
import {
  getNamedType,
  isLeafType,
  isObjectType,
  parse,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type { ASTNode, GraphQLObjectType, GraphQLSchema } from 'graphql';

const FORMATS: readonly [string, RegExp][] = [
  ['local date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/],
  ['offset date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/],
  ['ISO duration', /^-?P(T(\d+H)?(\d+M)?(\d+(\.\d+)?S)?|\d+D.*)$/],
];

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Differences between `actual` and the real `sample`: every key of the sample must exist; where both
 * values are non-null they must be of the same kind and string format. Arrays compare element-wise.
 */
export function shapeDifferences(
  actual: unknown,
  sample: unknown,
  path = '$',
  ignore: readonly string[] = [],
): string[] {
  if (ignore.includes(path) || sample === null || actual === null) return [];
  const a = kind(actual);
  const s = kind(sample);
  if (a !== s) return [`${path}: ${a} where the capture has ${s}`];
  if (typeof sample === 'string' && typeof actual === 'string') {
    const format = FORMATS.find(([, re]) => re.test(sample));
    return format && !format[1].test(actual)
      ? [`${path}: "${actual}" is not a ${format[0]} like "${sample}"`]
      : [];
  }
  if (Array.isArray(sample) && Array.isArray(actual)) {
    const n = Math.min(sample.length, actual.length);
    return Array.from({ length: n }, (_, i) =>
      shapeDifferences(actual[i], sample[i], `${path}[${i}]`, ignore),
    ).flat();
  }
  if (s === 'object') {
    const sampleObject = sample as Record<string, unknown>;
    const actualObject = actual as Record<string, unknown>;
    return Object.keys(sampleObject).flatMap((key) =>
      key in actualObject
        ? shapeDifferences(actualObject[key], sampleObject[key], `${path}.${key}`, ignore)
        : ignore.includes(`${path}.${key}`)
          ? []
          : [`${path}.${key}: missing`],
    );
  }
  return [];
}

/** A selection set for `type` that asks for exactly the fields present in a captured response object. */
export function selectionFromSample(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  sample: Record<string, unknown>,
): string {
  const fields = type.getFields();
  const parts = Object.entries(sample).flatMap(([key, value]) => {
    const field = fields[key];
    if (!field) return [];
    const named = getNamedType(field.type);
    if (isLeafType(named)) return [key];
    const item = Array.isArray(value) ? (value as unknown[])[0] : value;
    if (isObjectType(named) && item !== null && typeof item === 'object') {
      return [`${key} ${selectionFromSample(schema, named, item as Record<string, unknown>)}`];
    }
    return [`${key} { __typename }`];
  });
  return `{ ${parts.join(' ')} }`;
}

/** Drops the fields a schema does not define (so a newer capture's query runs against an older schema). */
export function stripUnknownFields(schema: GraphQLSchema, query: string): string {
  const typeInfo = new TypeInfo(schema);
  const document = visit(
    parse(query),
    visitWithTypeInfo(typeInfo, {
      Field(): ASTNode | null | undefined {
        return typeInfo.getFieldDef() ? undefined : null;
      },
    }),
  );
  return print(document);
}
