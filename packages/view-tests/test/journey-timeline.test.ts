// The journey timeline in a real browser: served by the journey server, fed query_journey_history's real
// answer (sessions recorded at fixed times, a document, a search with highlighted snippets), shown by ext-apps'
// own host bridge; More reaches the server with the answer's cursor and draws the next page.
import { QueryJourneyHistoryOutputSchema } from '@switchyard/contracts/journey';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTests } from '../src/browser.js';
import { TestHost } from '../src/host.js';
import { MAX_PIXEL_DIFFERENCE, screenshotAtFixedTimes, screenshotDifference } from '../src/screenshots.js';
import { startJourneyServer, type CallToolResult, type ViewServer } from '../src/servers.js';

const browser = browserTests('journey timeline');
const VIEW = 'ui://switchyard/journey-timeline';
/** A title is the person's text: markup in it must stay text, in the title and in the snippet. */
const MARKUP = '<img src=x onerror="document.title=1"><script>document.title=2</script>';
const USER_ID = '7d3f1c2e-4b5a-4c6d-8e9f-0a1b2c3d4e5f';
const SESSIONS = [
  { created_at: '2026-11-02T08:30:00Z', summary: 'Talked about running before work and how to keep it up.' },
  { created_at: '2026-11-09T18:00:00Z', summary: 'Running felt hard this week, but the plan held.' },
  { created_at: '2026-11-16T07:15:00Z', summary: 'Set a running goal for the spring: a 10 km race.' },
];

describe.skipIf(browser.skip)('the journey timeline in chromium', () => {
  let server: ViewServer;
  let host: TestHost;
  let html: string;
  let input: Record<string, unknown>;
  let answer: CallToolResult;

  beforeAll(async () => {
    server = await startJourneyServer();
    html = await server.readView(VIEW);
    const journey = await server.client.callTool({
      name: 'get_or_create_journey',
      arguments: { user_id: USER_ID },
    });
    const journeyId = (journey.structuredContent as { journey_id: string }).journey_id;
    for (const session of SESSIONS)
      await server.client.callTool({
        name: 'record_session',
        arguments: { journey_id: journeyId, ...session },
      });
    await server.client.callTool({
      name: 'add_document_to_journey',
      arguments: {
        journey_id: journeyId,
        document_type: 'woop_plan',
        title: `Running plan ${MARKUP}`,
        content: `Wish: run a 10 km race ${MARKUP}. Obstacle: dark mornings. Plan: run at lunch.`,
      },
    });
    input = { journey_id: journeyId, query: 'running', include_documents: true, limit: 2 };
    answer = await server.client.callTool({ name: 'query_journey_history', arguments: input });
    host = await TestHost.start(browser.executablePath, server.client);
  });
  afterAll(async () => {
    await host?.close();
    await server?.close();
  });

  it('shows sessions and documents newest first, matches highlighted, markup as text', async () => {
    const history = QueryJourneyHistoryOutputSchema.parse(answer.structuredContent);
    expect(history.sessions).toHaveLength(2);
    expect(history.documents?.length).toBe(1);
    expect(history.next_cursor).toEqual(expect.any(String));
    const view = await host.show(html, input, answer, { theme: 'light', timeZone: 'Europe/Helsinki' });
    const entries = view.locator('ol[aria-label="Timeline"] > li');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(3);
    const kinds = await entries.evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    const times = [...history.sessions, ...history.documents!]
      .map((entry) => ({ kind: 'summary' in entry ? 'session' : 'document', at: entry.created_at! }))
      .sort((a, b) => b.at.localeCompare(a.at));
    expect(kinds).toEqual(times.map((entry) => entry.kind));
    const marks = await view.locator('mark').allTextContents();
    expect(marks.length).toBeGreaterThanOrEqual(3);
    for (const mark of marks) expect(mark.toLowerCase()).toMatch(/^run/);
    // The markup is shown as the characters it is, in the title and in its snippet: no element made of it.
    const documentEntry = view.locator('li[data-kind="document"]');
    expect(await documentEntry.locator('p:not(.row)').allTextContents()).toEqual([
      `Running plan ${MARKUP}`,
      expect.stringContaining('<img src=x onerror="document.title=1"><script>'),
    ]);
    expect(await view.locator('main img, main script').count()).toBe(0);
    expect(await view.evaluate(() => document.title)).toBe('Journey timeline');
    expect(host.requests).toEqual([]);
  });

  it('has no serious or critical accessibility finding and looks as its screenshots do, in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await host.changeTheme(theme);
      await host.view().locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
      expect(await host.seriousAccessibilityFindings()).toEqual([]);
      // A document's time is when the test added it: covered.
      const png = await screenshotAtFixedTimes(host, ['[data-kind="document"] .time']);
      expect(await screenshotDifference(host, `journey-timeline-${theme}`, png)).toBeLessThan(
        MAX_PIXEL_DIFFERENCE,
      );
    }
  });

  it('pages from the keyboard: More calls the tool with the cursor through the host and draws the next page', async () => {
    const history = QueryJourneyHistoryOutputSchema.parse(answer.structuredContent);
    const view = host.view();
    const shown = await view.locator('ol[aria-label="Timeline"] > li').allTextContents();
    const logged = server.callsLogged('query_journey_history');
    await view.getByRole('button', { name: 'More' }).focus();
    await host.page.keyboard.press('Enter');
    await view.getByRole('status').filter({ hasText: 'Updated.' }).waitFor({ state: 'attached' });
    expect(host.calls).toEqual([
      { name: 'query_journey_history', arguments: { ...input, cursor: history.next_cursor } },
    ]);
    expect(server.callsLogged('query_journey_history')).toBe(logged + 1);
    const next = await view.locator('ol[aria-label="Timeline"] > li').allTextContents();
    expect(next).toHaveLength(1);
    expect(shown).not.toContain(next[0]);
    expect(await view.getByRole('button', { name: 'More' }).count()).toBe(0);
  });
  it("shows a refused call's message, not an empty timeline", async () => {
    const refusedInput = { journey_id: '00000000-0000-4000-8000-000000000000' };
    const refused = await server.client.callTool({ name: 'query_journey_history', arguments: refusedInput });
    expect(refused.isError).toBe(true);
    const { message } = (refused.structuredContent as { error: { message: string } }).error;
    const view = await host.show(html, refusedInput, refused, { theme: 'light' });
    await view.getByRole('alert').waitFor();
    expect(await view.getByRole('alert').textContent()).toBe(message);
    expect(await view.locator('ol').count()).toBe(0);
  });
});
