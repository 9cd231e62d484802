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

/** One leak: where a sentinel (or a watched secret) was seen. */
export interface Leak {
  where: string;
  secrets: string[];
}

/**
 * The forms of an OAuth access token a leak could take: the token, and its signature (a JWT's third part, the
 * part no one else can produce) raw and URL-encoded. An opaque token is its own signature.
 */
function accessTokenForms(token: string): string[] {
  const signature = token.slice(token.lastIndexOf('.') + 1);
  return [token, encodeURIComponent(token), ...(signature.length >= 16 ? [signature] : [])];
}

/**
 * Collects texts from tool outputs, errors and log lines, and reports every one that holds a sentinel or a
 * secret made during the run (an access token a provider issued: `watchAccessToken`).
 */
export class SecretScanner {
  private scanned = 0;
  private readonly leaks: Leak[] = [];
  private readonly watched: { name: string; needle: string }[] = [];

  /** Also look for this access token (in its raw, URL-encoded and signature forms) from now on. */
  watchAccessToken(name: string, token: string): void {
    for (const needle of new Set(accessTokenForms(token))) this.watched.push({ name, needle });
  }

  scan(where: string, value: unknown): void {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    this.scanned += 1;
    const secrets: string[] = findSentinels(text);
    for (const { name, needle } of this.watched) {
      if (text.includes(needle) && !secrets.includes(name)) secrets.push(name);
    }
    if (secrets.length > 0) this.leaks.push({ where, secrets });
  }

  get count(): number {
    return this.scanned;
  }

  found(): readonly Leak[] {
    return this.leaks;
  }
}
