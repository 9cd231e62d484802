// planJourney's from/to may name the caller's saved London stop or location (its exact key); any other string,
// including another caller's key, goes to TfL exactly as given. Through a real SDK client against the TfL mock.
import path from 'node:path';
import Database from 'better-sqlite3';
import { PlanJourneyOutputSchema } from '@switchyard/contracts/transit';
import { describe, expect, it } from 'vitest';
import { useHarness } from './helpers.js';

const h = useHarness();

const OXFORD_CIRCUS = { type: 'tfl-stop', naptanId: '940GZZLUOXC', name: 'Oxford Circus' };
const HOME = { type: 'location', lat: 51.5308, lon: -0.1238, name: 'Home' };

async function save(key: string, value: Record<string, unknown>): Promise<void> {
  const answer = await h.call('save_user_variable', { key, value });
  expect(answer.isError).toBe(false);
}

/** The path planJourney asked TfL for. */
async function journeyPath(from: string, to: string): Promise<string> {
  const answer = await h.call('planJourney', { from, to });
  expect(PlanJourneyOutputSchema.parse(answer.structured).code).toBe('OK');
  const request = h.tfl.requests.filter((r) => r.path.startsWith('/Journey/JourneyResults/')).at(-1);
  return decodeURIComponent(request!.path);
}

describe('planJourney with saved places', () => {
  it("resolves the caller's saved tfl-stop to its NaPTAN id and a saved location to lat,lon", async () => {
    await save('work', OXFORD_CIRCUS);
    await save('home', HOME);
    expect(await journeyPath('home', 'work')).toBe(
      '/Journey/JourneyResults/51.530800,-0.123800/to/940GZZLUOXC',
    );
  });

  it('sends any other string to TfL unchanged: unknown, another case, an HSL stop, a non-key', async () => {
    await save('work', OXFORD_CIRCUS);
    await save('kamppi', { type: 'stop', stopId: 'HSL:1040602' });
    expect(await journeyPath('Bank', 'Mile End')).toBe('/Journey/JourneyResults/Bank/to/Mile End');
    expect(await journeyPath('Work', 'kamppi')).toBe('/Journey/JourneyResults/Work/to/kamppi');
    const long = `${'Westminster '.repeat(5)}Abbey`;
    expect(await journeyPath(long, 'Waterloo')).toBe(`/Journey/JourneyResults/${long}/to/Waterloo`);
  });

  it("does not resolve another caller's saved place", async () => {
    await save('mine', OXFORD_CIRCUS);
    const sqlite = new Database(path.join(h.dataDir, 'transit.sqlite'));
    try {
      const { principal } = sqlite.prepare("SELECT principal FROM saved_places WHERE key = 'mine'").get() as {
        principal: string;
      };
      const stamp = '2026-01-01T00:00:00Z';
      sqlite
        .prepare('INSERT INTO saved_places VALUES (?, ?, ?, ?, ?, ?)')
        .run(`${principal}-other`, 'office', 'tfl-stop', JSON.stringify(OXFORD_CIRCUS), stamp, stamp);
    } finally {
      sqlite.close();
    }
    expect(await journeyPath('office', 'mine')).toBe('/Journey/JourneyResults/office/to/940GZZLUOXC');
  });
});
