// `@switchyard/contracts/json-schema`: the contract schemas as JSON Schema, the way `tools/list` lists them.
export { convertForListing, listingJsonSchema, LISTING_FILE_NAME } from './listing.js';
export { toolListingSchemas, type ListedToolSchemas } from './tool-listing.js';
export type { JsonSchema, ListingFile, SchemaIo } from './types.js';
export { contractSchemaName } from '../schema-names.js';
