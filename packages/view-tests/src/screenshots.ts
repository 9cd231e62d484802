import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestHost } from './host.js';

/** The committed screenshots (the README shows them too). */
export const SCREENSHOTS_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));
/** A view may differ from its screenshot in this share of pixels (antialiasing), no more. */
export const MAX_PIXEL_DIFFERENCE = 0.01;

/**
 * The share of pixels `png` differs from the committed screenshot `name`. With SWITCHYARD_UPDATE_SCREENSHOTS=1
 * (or, outside CI, when there is none yet) it becomes the screenshot; under CI a missing one fails.
 */
export async function screenshotDifference(host: TestHost, name: string, png: Buffer): Promise<number> {
  const file = `${SCREENSHOTS_DIR}${name}.png`;
  const update = process.env.SWITCHYARD_UPDATE_SCREENSHOTS === '1';
  if (update || !fs.existsSync(file)) {
    if (!update && (process.env.CI === '1' || process.env.CI === 'true'))
      throw new Error(
        `${file} is missing: run the test once with SWITCHYARD_UPDATE_SCREENSHOTS=1 and commit it`,
      );
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    fs.writeFileSync(file, png);
    return 0;
  }
  return host.pixelDifference(fs.readFileSync(file), png);
}

/**
 * The view as an image with the text of `changing` (CSS selectors of times and the like) written as 00:00:
 * for pages where covering them misplaces the masks (closed `<details>`, whose text has no box).
 */
export async function screenshotAtFixedTimes(host: TestHost, changing: readonly string[]): Promise<Buffer> {
  await host
    .view()
    .locator(changing.join(', '))
    .evaluateAll((elements) => elements.forEach((element) => (element.textContent = '00:00')));
  return host.screenshot();
}
