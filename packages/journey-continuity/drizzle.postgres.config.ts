import { defineConfig } from 'drizzle-kit';

// The PostgreSQL migrations (JOURNEY_DATABASE_URL / SWITCHYARD_DATABASE_URL); drizzle.config.ts has SQLite's.
// The text search configuration lives in a custom migration (drizzle-kit does not model one).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres-schema.ts',
  out: './drizzle-postgres',
});
