// Prints the full-text migration. It was written into drizzle/0001_fts.sql once (after
// `drizzle-kit generate --custom --name fts`); a committed migration never changes, and
// test/migrations.test.ts checks the file still equals this output.
//   npx tsx scripts/fts-migration.ts > drizzle/0001_fts.sql
import { ftsMigrationStatements } from '../src/db/fts.js';

process.stdout.write(`${ftsMigrationStatements().join('\n--> statement-breakpoint\n')}\n`);
