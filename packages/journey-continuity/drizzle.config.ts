import { defineConfig } from 'drizzle-kit';

// `pnpm db:generate` writes a migration into drizzle/ after a change to src/db/schema.ts; commit it.
// The full-text tables and their triggers live in a custom migration (see scripts/fts-migration.ts).
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
