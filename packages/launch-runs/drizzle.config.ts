import { defineConfig } from 'drizzle-kit';

// `pnpm db:generate` writes a migration into drizzle/ after a change to src/db/schema.ts; commit it.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
