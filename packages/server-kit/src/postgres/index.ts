/**
 * `@switchyard/server-kit/postgres`: a domain's PostgreSQL connection pool, checked at start, and its
 * migrations. Loaded only by domains configured for PostgreSQL (the settings themselves are in `./runtime`):
 * the embedded SQLite default never loads the driver.
 */
export { applyPostgresMigrations, openPostgres, type OpenPostgresOptions } from './open.js';
export { migrateDomains, type DomainMigration } from './migrate.js';
