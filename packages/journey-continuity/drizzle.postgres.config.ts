import { defineConfig } from 'drizzle-kit';

// The PostgreSQL migrations (JOURNEY_DATABASE_URL / SWITCHYARD_DATABASE_URL); drizzle.config.ts has SQLite's.
// The text search configuration lives in a custom migration (drizzle-kit does not model one).
// Every object follows the connection's search_path: after generating, remove the "public". drizzle-kit writes
// into foreign keys (apps/meta-server/test/postgres-schemas.test.ts fails on a migration that names a schema).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres-schema.ts',
  out: './drizzle-postgres',
});
