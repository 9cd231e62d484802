import fs from 'node:fs';

/** Where Debian's chromium is (CHROMIUM_PATH first), or undefined. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((file): file is string => file !== undefined && file !== '' && fs.existsSync(file));
}

/**
 * Whether the browser tests run: with a chromium, always; without one they skip saying why, except under CI=1,
 * where they fail (CI proves them).
 */
export function browserTests(suite: string): { skip: boolean; executablePath: string } {
  const executablePath = findChromium();
  if (executablePath !== undefined) return { skip: false, executablePath };
  const reason = `${suite}: no chromium (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === '1' || process.env.CI === 'true')
    throw new Error(`${reason}; CI must run these tests`);
  console.warn(`${reason}: skipped`);
  return { skip: true, executablePath: '' };
}
