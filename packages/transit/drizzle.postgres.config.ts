import { defineConfig } from 'drizzle-kit';

// The PostgreSQL migrations (TRANSIT_DATABASE_URL / SWITCHYARD_DATABASE_URL); drizzle.config.ts has SQLite's.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres-schema.ts',
  out: './drizzle-postgres',
});
