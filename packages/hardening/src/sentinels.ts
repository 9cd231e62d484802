/**
 * Sentinel secrets: configured as the real keys and token would be, then searched for in every tool output,
 * log line and error. Each has a distinctive random-looking core so that a partial leak (a truncated or
 * re-encoded copy) is still found.
 */
export const SENTINELS = {
  tflKey: 'SENTINEL-TFL-KEY-q7Zt4mW9xK2pL8vN',
  digitransitKey: 'SENTINEL-DT-KEY-h3Rb6yJ1cF5sQ0dE',
  githubToken: 'SENTINEL-GH-TOKEN-u8Ma2nV7gT4wZ1kX',
  switchyardToken: 'SENTINEL-SY-TOKEN-e5Pf9rC3jH6bY2tA',
} as const;

export type SentinelName = keyof typeof SENTINELS;

/** The environment variable the launch run_configs of this suite name in `pr.github.token_env`. */
export const GITHUB_TOKEN_ENV = 'HARDENING_GITHUB_TOKEN';

function forms(secret: string): string[] {
  const core = secret.slice(secret.lastIndexOf('-') + 1);
  return [
    secret,
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    core,
    core.toLowerCase(),
  ];
}

const NEEDLES: readonly { name: SentinelName; needle: string }[] = (
  Object.entries(SENTINELS) as [SentinelName, string][]
).flatMap(([name, secret]) => [...new Set(forms(secret))].map((needle) => ({ name, needle })));

/** Which sentinels (in any of their raw, URL-encoded, base64 or core forms) occur in `text`. */
export function findSentinels(text: string): SentinelName[] {
  const found = new Set<SentinelName>();
  for (const { name, needle } of NEEDLES) if (text.includes(needle)) found.add(name);
  return [...found];
}

/** One leak: where a sentinel was seen, with a short excerpt around it for the failure message. */
export interface Leak {
  where: string;
  secrets: SentinelName[];
}

/** Collects texts from tool outputs, errors and log lines, and reports every one that holds a sentinel. */
export class SecretScanner {
  private scanned = 0;
  private readonly leaks: Leak[] = [];

  scan(where: string, value: unknown): void {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    this.scanned += 1;
    const secrets = findSentinels(text);
    if (secrets.length > 0) this.leaks.push({ where, secrets });
  }

  get count(): number {
    return this.scanned;
  }

  found(): readonly Leak[] {
    return this.leaks;
  }
}
