import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import type { McpUiHostContext, McpUiTheme } from '@modelcontextprotocol/ext-apps';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

type CallToolResult = Awaited<ReturnType<Client['callTool']>>;

/** The host page's script (src/host-page.ts with ext-apps' AppBridge), bundled once per process. */
let hostScript: Promise<string> | undefined;
function bundledHostScript(): Promise<string> {
  hostScript ??= esbuild
    .build({
      entryPoints: [fileURLToPath(new URL('./host-page.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'warning',
    })
    .then((built) => built.outputFiles[0]!.text.replace(/<\/(script)/gi, '<\\/$1'));
  return hostScript;
}

/** The colour changing parts of a view are covered with in screenshots. */
const MASK_COLOR = '#9ca3af';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** A chromium with the test host page, connected to a server through `client` (a real SDK client). */
export class TestHost {
  /** Every tools/call the view made through the host, in order. */
  readonly calls: { name: string; arguments?: Record<string, unknown> }[] = [];
  /** Every request the page or the view sent to the network (there should be none). */
  readonly requests: string[] = [];

  private constructor(
    private readonly browser: Browser,
    readonly page: Page,
  ) {}

  static async start(executablePath: string, client: Client): Promise<TestHost> {
    // --no-sandbox: the tests may run as root (CI's container), where chromium's own sandbox cannot start.
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    const page = await browser.newPage({ viewport: { width: 700, height: 900 }, deviceScaleFactor: 1 });
    const host = new TestHost(browser, page);
    page.on('request', (request) => {
      if (!/^(about|data):/.test(request.url())) host.requests.push(request.url());
    });
    await page.exposeFunction(
      'hostCallTool',
      async (params: { name: string; arguments?: Record<string, unknown> }) => {
        host.calls.push(params);
        return client.callTool(params);
      },
    );
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>Test host</title></head><body style="margin:0">` +
        `<script type="module">${await bundledHostScript()}</script></body></html>`,
    );
    await page.waitForFunction(() => typeof window.mountView === 'function');
    return host;
  }

  /** Mounts the view's page as the server serves it, then hands it a tool's arguments and result. */
  async show(
    html: string,
    args: Record<string, unknown>,
    result: CallToolResult,
    hostContext: McpUiHostContext,
  ): Promise<Frame> {
    // Context and result as plain objects: their SDK types are too deep for Playwright's argument typing.
    const mount: { page: string; context: object } = { page: html, context: hostContext };
    await this.page.evaluate(({ page, context }) => window.mountView(page, context as never), mount);
    await this.deliver(args, result);
    return this.view();
  }

  /** Hands the mounted view another answer, as a host does for a new call of its tool. */
  async deliver(args: Record<string, unknown>, result: CallToolResult): Promise<void> {
    const delivery: { input: Record<string, unknown>; answer: object } = { input: args, answer: result };
    await this.page.evaluate(({ input, answer }) => window.deliverResult(input, answer as never), delivery);
  }

  /** The view's iframe height, in CSS pixels, as the host last set it from the view's size reports. */
  async frameHeight(): Promise<number> {
    return this.page.locator('iframe').evaluate((frame) => frame.getBoundingClientRect().height);
  }

  view(): Frame {
    const frame = this.page.frames().find((candidate) => candidate.parentFrame() === this.page.mainFrame());
    if (frame === undefined) throw new Error('no view is mounted');
    return frame;
  }

  async changeTheme(theme: McpUiTheme): Promise<void> {
    await this.page.evaluate((next) => window.changeTheme(next), theme);
  }

  /** axe-core's serious and critical findings in the view (WCAG 2.x A and AA rules). */
  async seriousAccessibilityFindings(): Promise<AxeViolation[]> {
    const frame = this.view();
    await frame.evaluate(await axeSource);
    const violations = await frame.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: object,
            ): Promise<{
              violations: { id: string; impact: string | null; help: string; nodes: unknown[] }[];
            }>;
          };
        }
      ).axe;
      const results = await axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return results.violations.map(({ id, impact, help, nodes }) => ({
        id,
        impact,
        help,
        nodes: nodes.length,
      }));
    });
    return violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
  }

  /**
   * The view as an image (PNG), with `masked` (CSS selectors of changing text, e.g. times) covered. The covers
   * are drawn inside the view, over each element's box, rather than by Playwright's `mask`: for elements of a
   * child frame that option now and then drew nothing (the London board's times showed through, 14% of its
   * pixels, about one run in six with a second browser busy beside it).
   */
  async screenshot(masked: readonly string[] = []): Promise<Buffer> {
    const frame = this.view();
    if (masked.length > 0) {
      const drawn = await frame.evaluate(
        ({ selectors, color }) => {
          const boxes = [...document.querySelectorAll(selectors)].map((element) =>
            element.getBoundingClientRect(),
          );
          for (const box of boxes) {
            const cover = document.createElement('div');
            cover.dataset.testCover = '';
            cover.style.cssText =
              `position: absolute; left: ${box.left + window.scrollX}px; top: ${box.top + window.scrollY}px; ` +
              `width: ${box.width}px; height: ${box.height}px; background: ${color}; z-index: 2147483647; ` +
              'pointer-events: none';
            document.body.append(cover);
          }
          return boxes.length;
        },
        { selectors: masked.join(', '), color: MASK_COLOR },
      );
      if (drawn === 0) throw new Error(`nothing in the view matches the changing parts ${masked.join(', ')}`);
    }
    try {
      return await this.page.locator('iframe').screenshot({ animations: 'disabled' });
    } finally {
      if (masked.length > 0) {
        await frame.evaluate(() =>
          document.querySelectorAll('[data-test-cover]').forEach((cover) => cover.remove()),
        );
      }
    }
  }

  /**
   * The share of pixels that differ between two PNGs of the same size (1 when the sizes differ), measured by
   * the browser's own decoder.
   */
  async pixelDifference(a: Buffer, b: Buffer): Promise<number> {
    return this.page.evaluate(
      async ([first, second]) => {
        const decode = async (base64: string) => {
          const bitmap = await createImageBitmap(
            await (await fetch(`data:image/png;base64,${base64}`)).blob(),
          );
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const context = canvas.getContext('2d')!;
          context.drawImage(bitmap, 0, 0);
          return context.getImageData(0, 0, bitmap.width, bitmap.height);
        };
        const [x, y] = [await decode(first), await decode(second)];
        if (x.width !== y.width || x.height !== y.height) return 1;
        let differing = 0;
        for (let i = 0; i < x.data.length; i += 4) {
          const delta = Math.max(
            Math.abs(x.data[i]! - y.data[i]!),
            Math.abs(x.data[i + 1]! - y.data[i + 1]!),
            Math.abs(x.data[i + 2]! - y.data[i + 2]!),
          );
          if (delta > 8) differing += 1;
        }
        return differing / (x.width * x.height);
      },
      [a.toString('base64'), b.toString('base64')] as const,
    );
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
