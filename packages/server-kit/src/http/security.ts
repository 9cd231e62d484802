import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** True for `localhost`, 127.0.0.0/8 and ::1 (with or without brackets). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase();
  if (lower === 'localhost') return true;
  const family = net.isIP(lower);
  if (family === 4) return lower.startsWith('127.');
  if (family === 6) {
    const loopback = new net.BlockList();
    loopback.addAddress('::1', 'ipv6');
    loopback.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
    return loopback.check(lower, 'ipv6');
  }
  return false;
}

interface HostRule {
  hostname: string;
  /** Undefined when the rule accepts any port. */
  port: string | undefined;
}

interface HostAndPort {
  hostname: string;
  port: string;
}

function parseHostHeader(value: string): HostAndPort | undefined {
  try {
    const url = new URL(`http://${value}`);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '') {
      return undefined;
    }
    return { hostname: url.hostname.toLowerCase(), port: url.port === '' ? '80' : url.port };
  } catch {
    return undefined;
  }
}

function parseHostRule(entry: string): HostRule {
  const parsed = parseHostHeader(entry.trim());
  if (parsed === undefined || entry.trim() === '') {
    throw new Error(
      `http.allowedHosts entry "${entry}" is not a host name (like "example.com" or "example.com:8080")`,
    );
  }
  const hasPort = /:\d+$/.test(entry.trim());
  return { hostname: parsed.hostname, port: hasPort ? parsed.port : undefined };
}

/**
 * The Host header allow-list (DNS-rebinding protection). An entry is a host name, matching any port, or
 * `host:port`, matching only that port.
 */
export class HostAllowList {
  private readonly rules: HostRule[];
  /** The last Host header allowed: a client sends the same one with every request, parsed once. */
  private lastAllowed: string | undefined;

  constructor(entries: readonly string[]) {
    this.rules = entries.map(parseHostRule);
  }

  /** The hosts a loopback-bound server answers to: localhost, 127.0.0.1 and [::1], on its own port. */
  static loopback(port: number): HostAllowList {
    return new HostAllowList([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
  }

  allows(hostHeader: string | undefined): boolean {
    if (hostHeader === undefined) return false;
    if (hostHeader === this.lastAllowed) return true;
    const host = parseHostHeader(hostHeader);
    if (host === undefined) return false;
    const allowed = this.rules.some(
      (rule) => rule.hostname === host.hostname && (rule.port === undefined || rule.port === host.port),
    );
    if (allowed) this.lastAllowed = hostHeader;
    return allowed;
  }
}

function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? undefined : url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * The Origin check: a request without Origin (not from a browser) passes; a browser request passes when
 * its Origin is in `allowedOrigins`, or, without that list, when it is the server's own origin (same host
 * as the Host header). Anything else is a foreign page trying to reach the server.
 */
export class OriginPolicy {
  private readonly allowed: Set<string> | undefined;

  constructor(allowedOrigins: readonly string[] | undefined) {
    if (allowedOrigins === undefined) return;
    this.allowed = new Set(
      allowedOrigins.map((entry) => {
        const origin = normalizeOrigin(entry);
        if (origin === undefined) {
          throw new Error(
            `http.allowedOrigins entry "${entry}" is not an origin (like "https://app.example.com")`,
          );
        }
        return origin;
      }),
    );
  }

  allows(originHeader: string | undefined, hostHeader: string | undefined): boolean {
    if (originHeader === undefined) return true;
    const origin = normalizeOrigin(originHeader);
    if (origin === undefined) return false;
    if (this.allowed !== undefined) return this.allowed.has(origin);
    if (hostHeader === undefined) return false;
    return new URL(origin).host === hostHeader.toLowerCase();
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Bearer-token check. Both sides are hashed before `timingSafeEqual`, so the comparison takes the same time
 * whatever the length or content of the guess. The principal is a short fingerprint of the token: callers
 * with different tokens are told apart, and the token itself never reaches a handler or a log.
 */
export class BearerTokenAuth {
  private readonly expected: Buffer;
  readonly clientId: string;

  constructor(token: string) {
    this.expected = sha256(token);
    this.clientId = `token-${this.expected.toString('hex').slice(0, 16)}`;
  }

  /** The caller's AuthInfo when `authorization` carries the right token, else undefined. */
  authenticate(authorization: string | undefined): AuthInfo | undefined {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    const presented = match?.[1];
    if (presented === undefined) return undefined;
    if (!timingSafeEqual(sha256(presented), this.expected)) return undefined;
    // AuthInfo.token carries the fingerprint, not the secret, so no handler can echo the token.
    return { token: this.clientId, clientId: this.clientId, scopes: [] };
  }
}
