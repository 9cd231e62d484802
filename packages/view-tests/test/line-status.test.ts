// The line status board in a real browser: served by the transit server, fed get_line_status' real answer from
// the stand-in TfL, shown by ext-apps' own host bridge; its Refresh reaches the server and re-renders.
import { GetLineStatusOutputSchema } from '@switchyard/contracts/transit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTests } from '../src/browser.js';
import { TestHost } from '../src/host.js';
import { MAX_PIXEL_DIFFERENCE, screenshotDifference } from '../src/screenshots.js';
import { startTransitServer, type CallToolResult, type TransitServer } from '../src/servers.js';

const browser = browserTests('line status board');
const VIEW = 'ui://switchyard/line-status';
const INPUT = { modes: ['tube'] };
/** Times change from run to run: covered in screenshots. */
const CHANGING = ['header .muted'];

describe.skipIf(browser.skip)('the line status board in chromium', () => {
  let server: TransitServer;
  let host: TestHost;
  let html: string;
  let answer: CallToolResult;

  beforeAll(async () => {
    server = await startTransitServer();
    html = await server.readView(VIEW);
    answer = await server.client.callTool({ name: 'get_line_status', arguments: INPUT });
    host = await TestHost.start(browser.executablePath, server.client);
  });
  afterAll(async () => {
    await host?.close();
    await server?.close();
  });

  it('shows every line of the answer, disrupted lines first, each with its reason', async () => {
    const payload = GetLineStatusOutputSchema.parse(answer.structuredContent);
    const lines = payload.lines ?? [];
    expect(lines.some((line) => line.disrupted)).toBe(true);
    const view = await host.show(html, INPUT, answer, { theme: 'light', timeZone: 'Europe/London' });
    const cards = view.locator('ul[aria-label="Lines"] > li');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(lines.length);
    const shown = await cards.locator('h2').allTextContents();
    const disrupted = lines.filter((line) => line.disrupted).map((line) => line.name);
    expect(shown.slice(0, disrupted.length).map((text) => text.split(' · ')[0])).toEqual(disrupted);
    const reason = lines.find((line) => line.statuses.some((status) => status.reason))?.statuses[0]?.reason;
    expect(reason).toBeDefined();
    expect(await view.locator('li p', { hasText: reason!.slice(0, 40) }).count()).toBeGreaterThan(0);
    expect(host.requests).toEqual([]);
  });

  it('has no serious or critical accessibility finding, in the light theme and the dark', async () => {
    expect(await host.seriousAccessibilityFindings()).toEqual([]);
    await host.changeTheme('dark');
    await host.view().locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    expect(await host.seriousAccessibilityFindings()).toEqual([]);
  });

  it('looks as its screenshots do, in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      await host.changeTheme(theme);
      await host.view().locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
      const png = await host.screenshot(CHANGING);
      expect(await screenshotDifference(host, `line-status-${theme}`, png)).toBeLessThan(
        MAX_PIXEL_DIFFERENCE,
      );
    }
  });

  it('refreshes from the keyboard: the call reaches the server through the host and the board is drawn anew', async () => {
    const view = host.view();
    await view.locator('ul[aria-label="Lines"]').evaluate((list) => list.setAttribute('data-old', ''));
    const logged = server.callsLogged('get_line_status');
    const refresh = view.getByRole('button', { name: 'Refresh' });
    await refresh.focus();
    await host.page.keyboard.press('Enter');
    await view.getByRole('status').filter({ hasText: 'Updated.' }).waitFor({ state: 'attached' });
    expect(host.calls).toEqual([{ name: 'get_line_status', arguments: INPUT }]);
    expect(server.callsLogged('get_line_status')).toBe(logged + 1);
    expect(await view.locator('ul[aria-label="Lines"][data-old]').count()).toBe(0);
    expect(await view.locator('ul[aria-label="Lines"] > li').count()).toBeGreaterThan(0);
  });

  it('tells the host its new height when an answer draws it shorter, so the frame shrinks', async () => {
    const view = await host.show(html, INPUT, answer, { theme: 'light', timeZone: 'Europe/London' });
    await view.locator('ul[aria-label="Lines"] > li').nth(1).waitFor();
    const tall = await host.frameHeight();
    const payload = GetLineStatusOutputSchema.parse(answer.structuredContent);
    const oneLine = { ...payload, lines: (payload.lines ?? []).slice(0, 1) };
    await host.deliver(INPUT, {
      ...answer,
      structuredContent: oneLine,
      content: [{ type: 'text', text: JSON.stringify(oneLine) }],
    });
    await view.locator('ul[aria-label="Lines"] > li').nth(1).waitFor({ state: 'detached' });
    // Before: the view reported scrollHeight, which never falls below the frame's, and the frame kept its height.
    await expect.poll(() => host.frameHeight()).toBeLessThan(tall);
  });
});
