import { defineConfig } from 'drizzle-kit';

// The PostgreSQL migrations (LAUNCH_DATABASE_URL / SWITCHYARD_DATABASE_URL); drizzle.config.ts has SQLite's.
// `pnpm db:generate` writes both after a schema change; commit them.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres-schema.ts',
  out: './drizzle-postgres',
});
