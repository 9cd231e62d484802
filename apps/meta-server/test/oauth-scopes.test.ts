import { journeyDomain } from '@switchyard/journey-continuity';
import { launchRunsDomain } from '@switchyard/launch-runs';
import { toolScope, type Domain } from '@switchyard/server-kit';
import { transitDomain } from '@switchyard/transit';
import { describe, expect, it } from 'vitest';

/** Every tool of a domain with the OAuth scope it needs. */
function scopesOf(domain: Domain<never, never>): Record<string, string> {
  return Object.fromEntries(domain.tools.map((tool) => [tool.name, toolScope(domain, tool)]));
}

// The scopes table of SECURITY.md and the READMEs: each domain declares its own, this checks the result.
describe('OAuth scopes per tool', () => {
  it('transit: every tool needs transit', () => {
    const scopes = scopesOf(transitDomain as unknown as Domain<never, never>);
    expect(Object.keys(scopes).length).toBeGreaterThan(0);
    for (const [tool, scope] of Object.entries(scopes)) expect(scope, tool).toBe('transit');
  });

  it('journey: the read-only tools need journey:read, the others journey:write', () => {
    expect(scopesOf(journeyDomain as unknown as Domain<never, never>)).toEqual({
      get_or_create_journey: 'journey:write',
      record_session: 'journey:write',
      query_journey_history: 'journey:read',
      add_document_to_journey: 'journey:write',
      delete_journey: 'journey:write',
    });
  });

  it('launch: launch:run for every tool but launch_open_pr, which needs launch:pr', () => {
    const scopes = scopesOf(launchRunsDomain as unknown as Domain<never, never>);
    expect(scopes.launch_open_pr).toBe('launch:pr');
    const others = Object.entries(scopes).filter(([tool]) => tool !== 'launch_open_pr');
    expect(others.length).toBeGreaterThan(5);
    for (const [tool, scope] of others) expect(scope, tool).toBe('launch:run');
  });
});
