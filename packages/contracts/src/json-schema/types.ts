export type JsonSchema = Record<string, unknown>;
export type SchemaIo = 'input' | 'output';
/** The committed listing: by `io`, each named contract schema's JSON Schema (see `listingJsonSchema`). */
export type ListingFile = Record<SchemaIo, Record<string, JsonSchema>>;
