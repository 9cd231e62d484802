import { createRequire } from 'node:module';
import type { JsonSchema } from '@switchyard/contracts/json-schema';
import type { Ajv2020 as Ajv2020Class, ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { headerMirrorsOf, X_MCP_HEADER } from './header-mirrors.js';
import { schemaIssues } from './json-schema-issues.js';
import type { ObjectSchema } from './tool-spec.js';

/** The dialect a stated input schema is written in: MCP's default, and the only one server-kit validates. */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The bounds of a stated schema, checked where the tool is defined: the listing goes into every client's (and
 * model's) context, and the validator compiled from it runs on every call.
 */
export const STATED_SCHEMA_BOUNDS = { maxBytes: 64 * 1024, maxDepth: 32 } as const;

/** What each stated input lists, by the zod schema that stands for it in the tool spec. */
const stated = new WeakMap<z.ZodType, JsonSchema>();

// ajv loads when a tool states a schema, not with every server: most domains never do (cold start).
const require = createRequire(import.meta.url);
let Ajv2020: typeof Ajv2020Class | undefined;

function newValidator(): Ajv2020Class {
  Ajv2020 ??= (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020Class }).Ajv2020;
  const ajv = new Ajv2020({
    // The first failing keyword ends a call's validation: what one call costs does not grow with its errors.
    allErrors: false,
    // An unknown keyword is refused (a typo such as `requried` would otherwise constrain nothing)...
    strictSchema: true,
    // ...but a subschema may use `required` or `properties` without repeating `type: 'object'`, as 2020-12 allows.
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    // 2020-12 makes `format` an annotation unless a schema opts into the format-assertion vocabulary.
    validateFormats: false,
  });
  // ajv resolves `$anchor` but its strict mode does not count it as a keyword once a `$ref` is inlined.
  ajv.addKeyword({ keyword: '$anchor', schemaType: 'string' });
  ajv.addKeyword({ keyword: X_MCP_HEADER, schemaType: 'string' });
  return ajv;
}

function refuse(rule: string): never {
  throw new Error(`A stated input schema ${rule}`);
}

/**
 * Refuses what the validator must never do or a client cannot use: another dialect, a root that is not an
 * object, a `$ref` out of the document (server-kit never fetches one, as the specification requires), and a
 * schema past the bounds.
 */
function checkDocument(document: JsonSchema): void {
  const bytes = Buffer.byteLength(JSON.stringify(document), 'utf8');
  if (bytes > STATED_SCHEMA_BOUNDS.maxBytes) {
    refuse(`takes ${bytes} bytes; at most ${STATED_SCHEMA_BOUNDS.maxBytes} are listed`);
  }
  if (document.$schema !== undefined && document.$schema !== JSON_SCHEMA_2020_12) {
    refuse(
      `must be JSON Schema 2020-12 ("$schema": "${JSON_SCHEMA_2020_12}" or none), got ${JSON.stringify(document.$schema)}`,
    );
  }
  if (document.type !== 'object')
    refuse('must have `type: "object"` at its root: tool arguments are an object');
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null) return;
    if (depth > STATED_SCHEMA_BOUNDS.maxDepth) {
      refuse(`nests deeper than ${STATED_SCHEMA_BOUNDS.maxDepth} levels`);
    }
    for (const [key, value] of Object.entries(node)) {
      if (
        (key === '$ref' || key === '$dynamicRef') &&
        (typeof value !== 'string' || !value.startsWith('#'))
      ) {
        refuse(
          `has ${key} ${JSON.stringify(value)}, which leaves the document: server-kit never fetches a schema; ` +
            'put it under $defs and refer to it as "#/$defs/<name>"',
        );
      }
      visit(value, depth + 1);
    }
  };
  visit(document, 0);
}

/**
 * A tool input stated as a JSON Schema 2020-12 document, for what zod cannot say (`$anchor`, `if`/`then`/`else`,
 * `allOf`/`anyOf` over required fields): the document is listed in `tools/list` exactly as written, and the
 * arguments are validated by ajv's 2020-12 validator compiled from it once. A refusal is the contract's
 * validation error, naming each field as a zod contract's does. The document is checked here, where the tool
 * is defined (dialect, local `$ref`s only, bounds, SEP-2243 `x-mcp-header` rules): a bad one throws.
 */
export function jsonSchemaInput(document: JsonSchema): ObjectSchema {
  checkDocument(document);
  headerMirrorsOf(document, 'A stated input schema');
  const listed = structuredClone(document);
  let validate: ValidateFunction;
  try {
    validate = newValidator().compile(listed);
  } catch (error) {
    refuse(`is not valid JSON Schema 2020-12: ${(error as Error).message}`);
  }
  const schema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (validate(value)) return;
    for (const issue of schemaIssues(validate.errors ?? [], value)) {
      ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
    }
  });
  stated.set(schema, listed);
  return schema;
}

/** The document a `jsonSchemaInput` lists (a copy the caller may change), or undefined for a zod contract. */
export function statedInputSchema(input: z.ZodType): JsonSchema | undefined {
  const document = stated.get(input);
  return document === undefined ? undefined : structuredClone(document);
}
