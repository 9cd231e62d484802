/**
 * `@switchyard/server-kit/postgres`: a domain's PostgreSQL connection pool, checked at start, its readiness
 * probe, and its migrations. Loaded only by domains configured for PostgreSQL (the settings, and the
 * classification of database failures, are in `./runtime`): the embedded SQLite default never loads the
 * driver.
 */
export { applyPostgresMigrations, openPostgres, type OpenPostgresOptions } from './open.js';
export { migrateDomains, type DomainMigration } from './migrate.js';
export { postgresReachability } from './reachability.js';
