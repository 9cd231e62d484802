import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROVIDER_KEYS as TRANSIT_PROVIDER_KEYS } from '@switchyard/transit';
import { planDomains, type DomainDecision } from '../src/domains.js';
import { PROVIDER_KEYS } from '../src/index.js';
import { SettingsError } from '../src/settings.js';
import { DUMMY_KEYS, tempDir } from './helpers.js';

function summary(decisions: DomainDecision[]): Record<string, string> {
  return Object.fromEntries(
    decisions.map((d) => [d.name, `${d.mount ? 'mounted' : 'skipped'}: ${d.reason}`]),
  );
}

async function plan(env: Record<string, string>, domains?: DomainDecision['name'][]) {
  return planDomains({ env, dataDir: tempDir(), ...(domains === undefined ? {} : { domains }) });
}

describe('which domains switchyard mounts', () => {
  it('always mounts journey-continuity and launch-runs; skips transit without keys, saying which to set', async () => {
    const dataDir = tempDir();
    const decisions = await planDomains({ env: {}, dataDir });
    expect(summary(decisions)).toEqual({
      transit:
        'skipped: neither TFL_API_KEY (London) nor DIGITRANSIT_SUBSCRIPTION_KEY (Helsinki) is set; ' +
        'set one or both to add the transit tools',
      'launch-runs': `mounted: embedded SQLite in ${dataDir}`,
      'journey-continuity': `mounted: embedded SQLite in ${dataDir}`,
    });
    // Planning reads configuration only: nothing is opened yet.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('names the PostgreSQL database each domain is configured for, without its password', async () => {
    const env = {
      JOURNEY_DATABASE_URL: 'postgres://journeys:hunter2@db.example:5432/journeys',
      LAUNCH_DATABASE_URL: 'postgres://launch:hunter2@db.example:5433/launch',
    };
    const decisions = summary(await plan(env));
    expect(decisions['journey-continuity']).toMatch(
      /^mounted: PostgreSQL at db\.example:5432\/journeys \(JOURNEY_DATABASE_URL\)$/,
    );
    expect(decisions['launch-runs']).toMatch(
      /^mounted: PostgreSQL at db\.example:5433\/launch \(LAUNCH_DATABASE_URL\)$/,
    );
    expect(JSON.stringify(decisions)).not.toContain('hunter2');
  });

  it('mounts transit with exactly the providers whose keys are present', async () => {
    expect(summary(await plan({ TFL_API_KEY: 'k-tfl' })).transit).toBe(
      'mounted: providers tfl (London): TFL_API_KEY is set',
    );
    expect(summary(await plan({ DIGITRANSIT_SUBSCRIPTION_KEY: 'k-hsl' })).transit).toBe(
      'mounted: providers hsl (Helsinki): DIGITRANSIT_SUBSCRIPTION_KEY is set',
    );
    expect(summary(await plan(DUMMY_KEYS)).transit).toBe(
      'mounted: providers tfl (London) and hsl (Helsinki): TFL_API_KEY is set, DIGITRANSIT_SUBSCRIPTION_KEY is set',
    );
  });

  it("reads transit's own table of key variables, the one transit's configuration requires", () => {
    expect(PROVIDER_KEYS).toBe(TRANSIT_PROVIDER_KEYS);
    expect(TRANSIT_PROVIDER_KEYS).toEqual({ tfl: 'TFL_API_KEY', hsl: 'DIGITRANSIT_SUBSCRIPTION_KEY' });
  });

  it('honours TRANSIT_PROVIDERS when it is set, and then requires its keys', async () => {
    expect(summary(await plan({ ...DUMMY_KEYS, TRANSIT_PROVIDERS: 'hsl' })).transit).toBe(
      'mounted: providers hsl (Helsinki): TRANSIT_PROVIDERS=hsl',
    );
    await expect(plan({ TRANSIT_PROVIDERS: 'tfl' })).rejects.toThrow(
      'cannot mount transit: TFL_API_KEY: is required when the "tfl" provider is enabled',
    );
  });

  it('fails naming the missing key when transit is named in --domains', async () => {
    await expect(plan({}, ['transit'])).rejects.toThrow(SettingsError);
    await expect(plan({}, ['transit'])).rejects.toThrow(
      /cannot mount transit: TFL_API_KEY: is required .*, and DIGITRANSIT_SUBSCRIPTION_KEY when .*TRANSIT_PROVIDERS/,
    );
    await expect(plan({ DIGITRANSIT_SUBSCRIPTION_KEY: 'k' }, ['transit'])).rejects.toThrow(
      /cannot mount transit: TFL_API_KEY: is required/,
    );
    await expect(plan({ TFL_API_KEY: 'k' }, ['transit'])).rejects.toThrow(
      /cannot mount transit: DIGITRANSIT_SUBSCRIPTION_KEY: is required/,
    );
    expect(summary(await plan(DUMMY_KEYS, ['transit'])).transit).toBe(
      'mounted: providers tfl (London) and hsl (Helsinki): named in --domains',
    );
  });

  it('mounts only the domains listed in --domains', async () => {
    expect(summary(await plan(DUMMY_KEYS, ['journey-continuity']))).toMatchObject({
      transit: 'skipped: not listed in --domains / SWITCHYARD_DOMAINS',
      'launch-runs': 'skipped: not listed in --domains / SWITCHYARD_DOMAINS',
      'journey-continuity': expect.stringMatching(/^mounted/),
    });
  });

  it("fails fast on a domain's own wrong variable, naming it", async () => {
    await expect(plan({ JOURNEY_MAX_DOCUMENT_BYTES: 'lots' })).rejects.toThrow(
      'cannot mount journey-continuity: JOURNEY_MAX_DOCUMENT_BYTES: must be a whole number',
    );
    await expect(plan({ LAUNCH_LEASE_MS: '5' })).rejects.toThrow(/cannot mount launch-runs: LAUNCH_LEASE_MS/);
    await expect(plan({ ...DUMMY_KEYS, TFL_API_BASE_URL: 'ftp://x' })).rejects.toThrow(
      /cannot mount transit: TFL_API_BASE_URL: must be an http\(s\) URL/,
    );
  });
});
