import { journeyDomain } from '@switchyard/journey-continuity';
import { launchRunsDomain } from '@switchyard/launch-runs';
import { migrateDomains } from '@switchyard/server-kit/postgres';
import { transitDomain } from '@switchyard/transit';
import type { Env } from './cli.js';

const ALL_DOMAINS = [transitDomain, journeyDomain, launchRunsDomain];

/** Migrates every domain configured for PostgreSQL; what to print, one line per domain. */
export async function migrateConfiguredDomains(env: Env): Promise<string[]> {
  const done = await migrateDomains(ALL_DOMAINS, env);
  if (done.length === 0) {
    const variables = ALL_DOMAINS.flatMap((domain) => (domain.postgres ? [domain.postgres.variable] : []));
    return [
      'nothing to migrate: no domain is configured for PostgreSQL ' +
        `(set SWITCHYARD_DATABASE_URL or ${variables.join(', ')}); SQLite files migrate when a server opens them`,
    ];
  }
  return done.map(({ domain, database, applied }) =>
    applied === 0
      ? `${domain}: up to date at ${database}`
      : `${domain}: applied ${applied} migration(s) at ${database}`,
  );
}
