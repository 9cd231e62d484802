import fs from 'node:fs';
import { z } from 'zod';
import { contractSchemaName } from '../schema-names.js';
import { compactForListing } from './compact.js';
import type { JsonSchema, ListingFile, SchemaIo } from './types.js';

export const LISTING_FILE_NAME = 'mcp-tools-list.json';

// `schemas/` sits beside both `src/` and `dist/`, so this resolves from either (and ships in the package).
const LISTING_FILE = new URL(`../../schemas/${LISTING_FILE_NAME}`, import.meta.url);

let formatPatterns: ReadonlySet<string> | undefined;

/** The regexes zod writes beside `format` for its date-times and UUIDs (the listing writes the format). */
function zodFormatPatterns(): ReadonlySet<string> {
  const pattern = (schema: z.ZodType) => (z.toJSONSchema(schema) as JsonSchema).pattern as string;
  formatPatterns ??= new Set([pattern(z.iso.datetime({ offset: true })), pattern(z.uuid())]);
  return formatPatterns;
}

/**
 * A zod schema as MCP clients see it in `tools/list`: draft-07 (what SDK clients validate with), made
 * compact and portable (see `compactForListing`).
 */
export function convertForListing(schema: z.ZodType, io: SchemaIo): JsonSchema {
  const json = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return compactForListing(json, io, zodFormatPatterns());
}

let listing: ListingFile | undefined;
const converted: Record<SchemaIo, WeakMap<z.ZodType, JsonSchema>> = {
  input: new WeakMap(),
  output: new WeakMap(),
};

/** Without the file (a checkout before `schemas:generate`), every schema is converted instead. */
function readListing(): ListingFile {
  try {
    return JSON.parse(fs.readFileSync(LISTING_FILE, 'utf8')) as ListingFile;
  } catch {
    return { input: {}, output: {} };
  }
}

/**
 * `convertForListing`, without the conversion for the contracts' own schemas: theirs is read from the
 * committed `schemas/mcp-tools-list.json` (kept identical by a test), because converting every tool's
 * schemas took a tenth of a server's start. Other schemas are converted once per process. Returns a copy
 * the caller may change.
 */
export function listingJsonSchema(schema: z.ZodType, io: SchemaIo): JsonSchema {
  const name = contractSchemaName(schema);
  if (name !== undefined) {
    listing ??= readListing();
    const stored = listing[io][name];
    if (stored !== undefined) return structuredClone(stored);
  }
  let json = converted[io].get(schema);
  if (json === undefined) {
    json = convertForListing(schema, io);
    converted[io].set(schema, json);
  }
  return structuredClone(json);
}
