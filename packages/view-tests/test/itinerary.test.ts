// The itinerary in a real browser, for both planners: plan_trip (HSL, the stand-in Digitransit's disrupted
// plan and the alternative it leads to) and planJourney (the stand-in TfL's recorded journeys, and its
// suggestions for an ambiguous place). Refresh and a picked suggestion reach the server as tool calls and redraw.
import { PlanJourneyOutputSchema, PlanTripOutputSchema } from '@switchyard/contracts/transit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTests } from '../src/browser.js';
import { TestHost } from '../src/host.js';
import { MAX_PIXEL_DIFFERENCE, screenshotAtFixedTimes, screenshotDifference } from '../src/screenshots.js';
import { startTransitServer, type TransitServer } from '../src/servers.js';

const browser = browserTests('itinerary');
const VIEW = 'ui://switchyard/itinerary';
/** A saved place's name is the caller's text: markup in it must stay text. */
const MARKUP_NAME = '<img src=x onerror="document.title=1">Home<script>document.title=2</script>';
const HSL_INPUT = {
  origin: { type: 'label', value: 'home' },
  destination: { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } },
  limit: 3,
};
const LONDON_INPUT = { from: 'Bank', to: 'Mile End' };
/** Times change from run to run: written as 00:00 in screenshots. */
const CHANGING = ['.time', 'header .muted'];

describe.skipIf(browser.skip)('the itinerary in chromium', () => {
  let server: TransitServer;
  let host: TestHost;
  let html: string;

  beforeAll(async () => {
    server = await startTransitServer();
    html = await server.readView(VIEW);
    host = await TestHost.start(browser.executablePath, server.client);
  });
  afterAll(async () => {
    await host?.close();
    await server?.close();
  });

  it('shows HSL itineraries leg by leg with realtime status, the disruption alternative marked, markup as text', async () => {
    server.digitransit.scenario('plan-disrupted-then-clear');
    await server.client.callTool({
      name: 'save_user_variable',
      arguments: { key: 'home', value: { type: 'location', lat: 60.1699, lon: 24.9384, name: MARKUP_NAME } },
    });
    const answer = await server.client.callTool({ name: 'plan_trip', arguments: HSL_INPUT });
    const plan = PlanTripOutputSchema.parse(answer.structuredContent);
    expect(plan.origin.name).toBe(MARKUP_NAME);
    expect(plan.itineraries.some((itinerary) => itinerary.disruptionFlag)).toBe(true);
    const view = await host.show(html, HSL_INPUT, answer, { theme: 'light', timeZone: 'Europe/Helsinki' });
    const cards = view.locator('ol[aria-label="Options"] > li');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(plan.itineraries.length);
    for (const [i, itinerary] of plan.itineraries.entries()) {
      const card = cards.nth(i);
      expect(await card.locator('ol.legs > li').count()).toBe(itinerary.legs.length);
      expect(await card.getByText('Alternative to a disrupted route').count()).toBe(
        itinerary.disruptionFlag ? 1 : 0,
      );
      expect(await card.getByText('Disrupted', { exact: true }).count()).toBe(itinerary.disrupted ? 1 : 0);
    }
    const line = plan.itineraries.flatMap((itinerary) => itinerary.legs).find((leg) => leg.line)!;
    expect(await view.locator('ol.legs strong', { hasText: line.line! }).count()).toBeGreaterThan(0);
    // The saved name is shown as the characters it is: no element made of it, no script run.
    expect(await view.locator('h1').textContent()).toContain(MARKUP_NAME);
    expect(await view.locator('main img, main script').count()).toBe(0);
    expect(await view.evaluate(() => document.title)).toBe('Trip itineraries');
    expect(await host.seriousAccessibilityFindings()).toEqual([]);
    expect(
      await screenshotDifference(host, 'itinerary-hsl', await screenshotAtFixedTimes(host, CHANGING)),
    ).toBeLessThan(MAX_PIXEL_DIFFERENCE);

    const logged = server.callsLogged('plan_trip');
    await view.getByRole('button', { name: 'Refresh' }).click();
    await view.getByRole('status').filter({ hasText: 'Updated.' }).waitFor({ state: 'attached' });
    expect(host.calls).toEqual([{ name: 'plan_trip', arguments: HSL_INPUT }]);
    expect(server.callsLogged('plan_trip')).toBe(logged + 1);
    expect(host.requests).toEqual([]);
  });

  it('shows London journeys with their walking, fares and disruptions, accessible and unchanged in the dark; legs open from the keyboard', async () => {
    const answer = await server.client.callTool({ name: 'planJourney', arguments: LONDON_INPUT });
    const plan = PlanJourneyOutputSchema.parse(answer.structuredContent);
    const journeys = plan.topJourneys!;
    expect(journeys.length).toBeGreaterThan(0);
    const view = await host.show(html, LONDON_INPUT, answer, { theme: 'dark', timeZone: 'Europe/London' });
    const cards = view.locator('ol[aria-label="Options"] > li');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(journeys.length);
    const walk = journeys[0]!.legs.find((leg) => leg.mode === 'walking' && leg.distanceMeters !== undefined);
    expect(walk).toBeDefined();
    expect(await cards.first().locator('ol.legs strong', { hasText: 'Walk' }).count()).toBeGreaterThan(0);
    const disrupted = journeys.findIndex((journey) => journey.isDisrupted);
    expect(disrupted).toBeGreaterThanOrEqual(0);
    expect(await cards.nth(disrupted).getByText('Disrupted', { exact: true }).count()).toBeGreaterThan(0);
    const fared = journeys.findIndex((journey) => journey.farePence !== undefined);
    expect(await cards.nth(fared).textContent()).toContain(
      `£${(journeys[fared]!.farePence! / 100).toFixed(2)}`,
    );
    expect(await host.seriousAccessibilityFindings()).toEqual([]);
    expect(
      await screenshotDifference(host, 'itinerary-london-dark', await screenshotAtFixedTimes(host, CHANGING)),
    ).toBeLessThan(MAX_PIXEL_DIFFERENCE);

    // Only the first option shows its legs; the keyboard opens another.
    expect(await view.locator('details[open]').count()).toBe(1);
    await cards.nth(1).locator('summary').focus();
    await host.page.keyboard.press('Enter');
    await cards.nth(1).locator('details[open]').waitFor({ state: 'attached' });
    expect(await cards.nth(1).locator('ol.legs > li').first().isVisible()).toBe(true);
  });

  it("offers TfL's suggestions for an ambiguous place; one picked from the keyboard plans again with it", async () => {
    server.tfl.scenario('disambiguation-from', { times: 1 });
    const input = { from: 'Victoria', to: 'Mile End' };
    const answer = await server.client.callTool({ name: 'planJourney', arguments: input });
    const plan = PlanJourneyOutputSchema.parse(answer.structuredContent);
    const suggestions = plan.fromLocationDisambiguation!;
    expect(suggestions.length).toBeGreaterThan(0);
    const view = await host.show(html, input, answer, { theme: 'light', timeZone: 'Europe/London' });
    const section = view.getByRole('region', { name: 'Which start did you mean?' });
    await section.waitFor();
    expect(await section.getByRole('button').count()).toBe(suggestions.length);
    expect(await view.getByRole('alert').textContent()).toBe(plan.message);
    expect(await host.seriousAccessibilityFindings()).toEqual([]);

    const before = host.calls.length;
    await section.getByRole('button').first().focus();
    await host.page.keyboard.press('Enter');
    await view.getByRole('status').filter({ hasText: 'Updated.' }).waitFor({ state: 'attached' });
    expect(host.calls.slice(before)).toEqual([
      { name: 'planJourney', arguments: { ...input, from: suggestions[0]!.parameterValue } },
    ]);
    expect(await view.locator('ol[aria-label="Options"] > li').count()).toBeGreaterThan(0);
  });
});
