// The run dashboard in a real browser: served by the launch-runs server with its real pipeline on the example
// repositories (local git, offline), fed launch_get_status's answer for a run resting in VALIDATING. Validate
// and Fix next reach the server as tool calls and redraw with their answers (gate results, the fix, the run
// READY_FOR_PR); markup in the run's data stays text; a read-only server's page shows no buttons.
import { LaunchGetStatusOutputSchema, type RunStatus } from '@switchyard/contracts/launch-runs';
import { exampleRunConfig } from '@switchyard/launch-runs';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTests } from '../src/browser.js';
import { TestHost } from '../src/host.js';
import { MAX_PIXEL_DIFFERENCE, screenshotDifference } from '../src/screenshots.js';
import { startLaunchServer, type CallToolResult, type LaunchServer } from '../src/servers.js';

const browser = browserTests('run dashboard');
const VIEW = 'ui://switchyard/run-dashboard';
/** The product's name is the caller's text, and the drafted pages' titles are made of it: it must stay text. */
const MARKUP = '<img src=x onerror="document.title=1"><script>document.title=2</script>';
/** The run id, the update time and the gates' durations change from run to run: written as 00:00. */
const CHANGING = ['header .muted', '.time'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a run: launch_start_run's answer, and launch_get_status's once the background work rests. */
async function restingRun(
  server: LaunchServer,
  productName?: string,
): Promise<{ started: CallToolResult; answer: CallToolResult }> {
  const config = { ...exampleRunConfig(server.repos), ...(productName ? { product_name: productName } : {}) };
  const started = await server.client.callTool({
    name: 'launch_start_run',
    arguments: { run_config: config },
  });
  const runId = (started.structuredContent as { run_id: string }).run_id;
  for (;;) {
    const answer = await server.client.callTool({ name: 'launch_get_status', arguments: { run_id: runId } });
    const { status } = LaunchGetStatusOutputSchema.parse(answer.structuredContent);
    if (status.details?.busy === false && ['VALIDATING', 'READY_FOR_PR', 'FAILED'].includes(status.state))
      return { started, answer };
    await sleep(50);
  }
}

const statusOf = (answer: CallToolResult): RunStatus =>
  LaunchGetStatusOutputSchema.parse(answer.structuredContent).status;

const button = (view: Frame, name: string) => view.getByRole('button', { name, exact: true });

/** Waits until the drafted pages' previews and the report beside the answer have been read and drawn. */
async function settled(view: Frame): Promise<void> {
  await view.getByRole('region', { name: 'Gates' }).waitFor();
  await view.locator('pre.preview').first().waitFor();
  await view.waitForFunction(
    () => ![...document.querySelectorAll('pre.preview')].some((pre) => pre.textContent === 'Loading…'),
  );
}

/**
 * The dashboard as an image, its changing text written as 00:00, once the host has fitted the iframe to the
 * height the view reports for its drawing.
 */
async function screenshot(host: TestHost): Promise<Buffer> {
  const view = host.view();
  await view
    .locator(CHANGING.join(', '))
    .evaluateAll((elements) => elements.forEach((element) => (element.textContent = '00:00')));
  const height = await view.evaluate(() =>
    Math.ceil(document.documentElement.getBoundingClientRect().height),
  );
  await host.page.waitForFunction(
    (reported) => document.querySelector('iframe')?.style.height === `${reported}px`,
    height,
  );
  return host.screenshot();
}

describe.skipIf(browser.skip)('the run dashboard in chromium', () => {
  let server: LaunchServer;
  let host: TestHost;
  let html: string;
  let answer: CallToolResult;

  beforeAll(async () => {
    // The dashboard is taller than the other views: room for all of it in the screenshots.
    server = await startLaunchServer();
    html = await server.readView(VIEW);
    ({ answer } = await restingRun(server));
    host = await TestHost.start(browser.executablePath, server.client);
    await host.page.setViewportSize({ width: 700, height: 2000 });
  });
  afterAll(async () => {
    await host?.close();
    await server?.close();
  });

  it('shows a run in VALIDATING: progress, sections, gates, open issues with their evidence, drafted pages', async () => {
    const status = statusOf(answer);
    expect(status.state).toBe('VALIDATING');
    expect(status.open_issues.length).toBeGreaterThan(0);
    const view = await host.show(html, { run_id: status.run_id }, answer, {
      theme: 'light',
      timeZone: 'UTC',
    });
    await settled(view);
    expect(await view.locator('main > .row strong').first().textContent()).toBe('VALIDATING');
    const steps = await view.locator('ol.steps > li').allTextContents();
    expect(steps).toHaveLength(9);
    expect(steps.slice(0, 7).every((step) => step.endsWith(': Done'))).toBe(true);
    expect(steps.slice(7)).toEqual(['W8 Fix issues: Waiting', 'W9 Open the PR: Waiting']);
    const sections = view.getByRole('region', { name: 'Sections' }).locator('tbody tr');
    expect(await sections.count()).toBe(Object.keys(status.section_states).length);
    // The gates and the issues' evidence come from the run's validation_report.json, read beside the status.
    const gates = view.getByRole('region', { name: 'Gates' }).locator('tbody tr');
    expect(await gates.count()).toBe(8);
    expect(await gates.filter({ hasText: 'InternalLinks' }).locator('td').nth(1).textContent()).toBe(
      'Failed',
    );
    const issues = view.getByRole('region', { name: 'Open issues' }).locator('li');
    expect(await issues.count()).toBe(status.open_issues.length);
    const issue = issues.first();
    expect(await issue.getAttribute('data-issue')).toBe(status.open_issues[0]!.issue_id);
    expect(await issue.textContent()).toContain('content/docs/_index.md:');
    expect(await issue.textContent()).toContain('Suggested fix: ');
    const drafted = status.artifacts.filter((artifact) => artifact.name.startsWith('drafts/'));
    const pages = view.getByRole('region', { name: 'Drafted pages' }).locator('li');
    expect(await pages.count()).toBe(drafted.length);
    expect(await pages.locator('summary strong').allTextContents()).toContain('Getting started with Tallyho');
    expect(await pages.first().locator('pre').textContent()).not.toMatch(/claim_id|^---/);
    // What the launch rules allow in VALIDATING: validate and fix, not the PR.
    expect(await button(view, 'Validate').isEnabled()).toBe(true);
    expect(await button(view, 'Fix next').isEnabled()).toBe(true);
    expect(await button(view, 'Open PR').isDisabled()).toBe(true);
    expect(host.calls.map((call) => call.name)).toEqual(expect.arrayContaining(['launch_get_artifact']));
    expect(host.calls.map((call) => call.name)).not.toContain('launch_get_status');
    expect(await host.seriousAccessibilityFindings()).toEqual([]);
    const png = await screenshot(host);
    expect(await screenshotDifference(host, 'run-dashboard-validating', png)).toBeLessThan(
      MAX_PIXEL_DIFFERENCE,
    );
    expect(host.requests).toEqual([]);
  });

  it('validates on a click: the call reaches the server and the gates are drawn anew from its answer', async () => {
    const { run_id } = statusOf(answer);
    const view = host.view();
    await view.locator('main').evaluate((main) => main.firstElementChild?.setAttribute('data-old', ''));
    const logged = server.callsLogged('launch_validate');
    const before = host.calls.length;
    await button(view, 'Validate').click();
    await view.getByRole('status').filter({ hasText: 'Updated.' }).waitFor({ state: 'attached' });
    expect(host.calls[before]).toEqual({ name: 'launch_validate', arguments: { run_id } });
    expect(server.callsLogged('launch_validate')).toBe(logged + 1);
    expect(await view.locator('[data-old]').count()).toBe(0);
    await view.getByRole('region', { name: 'Gates' }).waitFor();
    expect(await view.getByRole('region', { name: 'Gates' }).locator('h2').textContent()).toContain(
      'not passed',
    );
    // A validation changes the run: the view asks for its status after the answer.
    await view.waitForFunction(
      () => document.querySelector('main > .row strong')?.textContent === 'VALIDATING',
    );
    await expect.poll(() => host.calls.slice(before).map((call) => call.name)).toContain('launch_get_status');
  });

  it('fixes from the keyboard: the fix is shown, the run is READY_FOR_PR and Open PR is enabled; dark as light', async () => {
    const { run_id } = statusOf(answer);
    const view = host.view();
    const before = host.calls.length;
    await button(view, 'Fix next').focus();
    await host.page.keyboard.press('Enter');
    await view.getByRole('status').filter({ hasText: 'Updated.' }).waitFor({ state: 'attached' });
    expect(host.calls[before]).toEqual({ name: 'launch_fix_next', arguments: { run_id } });
    const fixed = await server.client.callTool({ name: 'launch_get_status', arguments: { run_id } });
    expect(statusOf(fixed).state).toBe('READY_FOR_PR');
    await view.waitForFunction(
      () => document.querySelector('main > .row strong')?.textContent === 'READY_FOR_PR',
    );
    expect(await view.locator('main > p[role="status"]').textContent()).toMatch(
      /^Fixed iss_\w+ \(.+\); 0 blocking issues left\.$/,
    );
    expect(await button(view, 'Open PR').isEnabled()).toBe(true);
    expect(await button(view, 'Fix next').isDisabled()).toBe(true);
    expect(await button(view, 'Validate').isEnabled()).toBe(true);
    expect(await view.locator('ol.steps > li').nth(7).textContent()).toBe('W8 Fix issues: 1 fix applied');
    await settled(view);
    await host.changeTheme('dark');
    await view.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    expect(await host.seriousAccessibilityFindings()).toEqual([]);
    const png = await screenshot(host);
    expect(await screenshotDifference(host, 'run-dashboard-ready-dark', png)).toBeLessThan(
      MAX_PIXEL_DIFFERENCE,
    );
  });

  it('opens the PR: the call reaches the server, the pull request is shown and the run is DONE', async () => {
    const { run_id } = statusOf(answer);
    const view = host.view();
    const before = host.calls.length;
    const logged = server.callsLogged('launch_open_pr');
    await button(view, 'Open PR').click();
    const shown = view.locator('main > p[role="status"]', { hasText: 'Pull request' });
    await shown.waitFor();
    expect(host.calls[before]).toEqual({ name: 'launch_open_pr', arguments: { run_id } });
    expect(server.callsLogged('launch_open_pr')).toBe(logged + 1);
    expect(await shown.textContent()).toMatch(
      new RegExp(`^Pull request \\S+: branch launch/${run_id}/\\S+, commit [0-9a-f]{12}\\.$`),
    );
    await view.waitForFunction(() => document.querySelector('main > .row strong')?.textContent === 'DONE');
  });

  it("shows markup in the run's data (the product name in page titles) as text, from launch_start_run's answer", async () => {
    const { started } = await restingRun(server, `Tallyho ${MARKUP}`);
    const before = host.calls.length;
    const view = await host.show(html, {}, started, { theme: 'light' });
    await settled(view);
    // The start's answer is the run id and its first state: the rest is asked for beside it.
    expect(host.calls[before]?.name).toBe('launch_get_status');
    const titles = await view
      .getByRole('region', { name: 'Drafted pages' })
      .locator('summary strong')
      .allTextContents();
    expect(titles).toContain(`Getting started with Tallyho ${MARKUP}`);
    const previews = await view.locator('pre.preview').allTextContents();
    expect(previews.some((text) => text.includes('<img src=x onerror="document.title=1">'))).toBe(true);
    expect(await view.locator('main img, main script').count()).toBe(0);
    expect(await view.evaluate(() => document.title)).toBe('Launch run dashboard');
  });

  it('shows no button on a read-only server, whose page may not call the tools', async () => {
    const readOnly = await startLaunchServer({ readOnly: true });
    try {
      const readOnlyHtml = await readOnly.readView(VIEW);
      const view = await host.show(readOnlyHtml, {}, answer, { theme: 'light' });
      await settled(view);
      expect(await view.getByRole('button').count()).toBe(0);
      expect(await view.getByRole('region', { name: 'Drafted pages' }).locator('li').count()).toBeGreaterThan(
        0,
      );
    } finally {
      await readOnly.close();
    }
  });
});
