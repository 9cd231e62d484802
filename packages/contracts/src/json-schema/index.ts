// `@switchyard/contracts/json-schema`: the contract schemas as JSON Schema, the way `tools/list` lists them.
export {
  convertForListing,
  listingJsonSchema,
  LISTING_FILE_NAME,
  type JsonSchema,
  type ListingFile,
  type SchemaIo,
} from './listing.js';
export { contractSchemaName } from '../schema-names.js';
