// The departure board in a real browser, for both of its tools: get_departures (HSL, with the stand-in
// Digitransit's service alerts) and get_london_arrivals (the stand-in TfL). Refresh and a saved stop reach the
// server as tool calls and redraw the board.
import { GetDeparturesOutputSchema, GetLondonArrivalsOutputSchema } from '@switchyard/contracts/transit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTests } from '../src/browser.js';
import { TestHost } from '../src/host.js';
import { MAX_PIXEL_DIFFERENCE, screenshotDifference } from '../src/screenshots.js';
import { startTransitServer, type TransitServer } from '../src/servers.js';

const browser = browserTests('departure board');
const VIEW = 'ui://switchyard/departure-board';
const HSL_INPUT = { stop: { type: 'id', value: 'HSL:1040129' }, limit: 6 };
const LONDON_INPUT = { stop: { type: 'id', value: '940GZZLUOXC' }, limit: 6 };
/** Times change from run to run: covered in screenshots (HSL's status and delay are the recording's). */
const HSL_CHANGING = ['header .muted', 'td:nth-child(3)'];
const LONDON_CHANGING = ['header .muted', 'td:nth-child(3)', 'td:nth-child(4)'];

describe.skipIf(browser.skip)('the departure board in chromium', () => {
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

  it('shows HSL departures with line, destination, status and the service alerts; a saved stop redraws it', async () => {
    server.digitransit.scenario('service-alerts');
    await server.client.callTool({
      name: 'save_user_variable',
      arguments: { key: 'kamppi', value: { type: 'stop', stopId: 'HSL:1040129', name: 'Arkadian puisto' } },
    });
    const answer = await server.client.callTool({ name: 'get_departures', arguments: HSL_INPUT });
    const board = GetDeparturesOutputSchema.parse(answer.structuredContent);
    const alerts = (board.warnings ?? []).filter((warning) => warning.alert !== undefined);
    expect(alerts.length).toBeGreaterThan(0);
    const view = await host.show(html, HSL_INPUT, answer, { theme: 'light', timeZone: 'Europe/Helsinki' });
    const rows = view.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(board.departures.length);
    const first = board.departures[0]!;
    expect(await rows.first().locator('td').nth(0).textContent()).toBe(first.line);
    expect(await rows.first().locator('td').nth(1).textContent()).toBe(first.destination);
    const alertList = view.getByRole('region', { name: 'Service alerts' }).locator('li');
    expect(await alertList.count()).toBe(alerts.length);
    expect(await host.seriousAccessibilityFindings()).toEqual([]);
    expect(
      await screenshotDifference(host, 'departure-board-hsl', await host.screenshot(HSL_CHANGING)),
    ).toBeLessThan(MAX_PIXEL_DIFFERENCE);

    await view.locator('option[value="kamppi"]').waitFor({ state: 'attached' });
    await view.getByLabel('Saved stop').selectOption('kamppi');
    const logged = server.callsLogged('get_departures');
    await view.getByRole('button', { name: 'Show' }).click();
    await view.getByRole('status').filter({ hasText: 'Updated.' }).waitFor({ state: 'attached' });
    expect(host.calls.filter((call) => call.name === 'get_departures').at(-1)).toEqual({
      name: 'get_departures',
      arguments: { ...HSL_INPUT, stop: { type: 'label', value: 'kamppi' } },
    });
    expect(server.callsLogged('get_departures')).toBe(logged + 1);
    expect(host.requests).toEqual([]);
  });

  it('shows London arrivals, refreshes from the keyboard, and is accessible and unchanged in the dark', async () => {
    const answer = await server.client.callTool({ name: 'get_london_arrivals', arguments: LONDON_INPUT });
    const board = GetLondonArrivalsOutputSchema.parse(answer.structuredContent);
    expect(board.arrivals?.length).toBeGreaterThan(0);
    const view = await host.show(html, LONDON_INPUT, answer, { theme: 'dark', timeZone: 'Europe/London' });
    const rows = view.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(board.arrivals!.length);
    expect(await rows.first().locator('td').nth(0).textContent()).toBe(board.arrivals![0]!.lineName);
    expect(await host.seriousAccessibilityFindings()).toEqual([]);
    expect(
      await screenshotDifference(host, 'departure-board-london-dark', await host.screenshot(LONDON_CHANGING)),
    ).toBeLessThan(MAX_PIXEL_DIFFERENCE);

    await view.locator('tbody').evaluate((body) => body.setAttribute('data-old', ''));
    const logged = server.callsLogged('get_london_arrivals');
    await view.getByRole('button', { name: 'Refresh' }).focus();
    await host.page.keyboard.press('Enter');
    await view.getByRole('status').filter({ hasText: 'Updated.' }).waitFor({ state: 'attached' });
    expect(host.calls.filter((call) => call.name === 'get_london_arrivals')).toEqual([
      { name: 'get_london_arrivals', arguments: LONDON_INPUT },
    ]);
    expect(server.callsLogged('get_london_arrivals')).toBe(logged + 1);
    expect(await view.locator('tbody[data-old]').count()).toBe(0);
  });
});
