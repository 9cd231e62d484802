import { describe, expect, it } from 'vitest';
import { BearerTokenAuth, HostAllowList, isLoopbackHost, OriginPolicy } from '../src/http/security.js';

describe('isLoopbackHost', () => {
  it('knows loopback names and addresses', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '::ffff:127.255.255.255',
      '[::ffff:7f00:1]',
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.10',
      'example.com',
      'localhost.example.com',
      '128.0.0.1',
      // IPv4-mapped IPv6 is loopback only within ::ffff:127.0.0.0/104, not its neighbours.
      '::ffff:10.0.0.1',
      '::ffff:126.255.255.255',
      '::ffff:128.0.0.1',
      '::ffff:0.0.0.0',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('HostAllowList', () => {
  it('matches names on any port, or host:port exactly, case-insensitively', () => {
    const list = new HostAllowList(['Example.com', 'api.example.com:8443', '[::1]:3333']);
    expect(list.allows('example.com')).toBe(true);
    expect(list.allows('EXAMPLE.COM:1234')).toBe(true);
    expect(list.allows('api.example.com:8443')).toBe(true);
    expect(list.allows('api.example.com')).toBe(false);
    expect(list.allows('[::1]:3333')).toBe(true);
    expect(list.allows('[::1]:3334')).toBe(false);
    expect(list.allows(undefined)).toBe(false);
    expect(list.allows('example.com/path')).toBe(false);
    expect(list.allows('user@example.com')).toBe(false);
    expect(list.allows('')).toBe(false);
  });

  it('judges each Host header on its own: one allowed before decides nothing for another', () => {
    const list = HostAllowList.loopback(3333);
    expect(list.allows('localhost:3333')).toBe(true);
    expect(list.allows('localhost:3333')).toBe(true);
    expect(list.allows('evil.example:3333')).toBe(false);
    expect(list.allows('localhost:3334')).toBe(false);
    expect(list.allows('localhost:3333')).toBe(true);
  });

  it('treats an omitted port as 80', () => {
    const list = new HostAllowList(['site.test:80']);
    expect(list.allows('site.test')).toBe(true);
    expect(list.allows('site.test:8080')).toBe(false);
  });
});

describe('OriginPolicy', () => {
  it('without a list, lets non-browser requests and same-origin pages through', () => {
    const policy = new OriginPolicy(undefined);
    expect(policy.allows(undefined, 'localhost:3333')).toBe(true);
    expect(policy.allows('http://localhost:3333', 'localhost:3333')).toBe(true);
    expect(policy.allows('http://evil.example', 'localhost:3333')).toBe(false);
    expect(policy.allows('http://localhost:4444', 'localhost:3333')).toBe(false);
    expect(policy.allows('null', 'localhost:3333')).toBe(false);
    expect(policy.allows('not a url', 'localhost:3333')).toBe(false);
  });

  it('without a list, refuses a browser request that has no Host to compare its Origin with', () => {
    expect(new OriginPolicy(undefined).allows('http://localhost:3333', undefined)).toBe(false);
    expect(new OriginPolicy(undefined).allows(undefined, undefined)).toBe(true);
  });

  it('with a list, allows exactly those origins', () => {
    const policy = new OriginPolicy(['https://App.example/']);
    expect(policy.allows('https://app.example', 'localhost:3333')).toBe(true);
    expect(policy.allows('http://app.example', 'localhost:3333')).toBe(false);
    expect(policy.allows('http://localhost:3333', 'localhost:3333')).toBe(false);
  });
});

describe('BearerTokenAuth', () => {
  const token = 'a-long-enough-token-1234';
  it('accepts exactly the token and derives a principal that is not the token', () => {
    const auth = new BearerTokenAuth(token);
    const info = auth.authenticate(`Bearer ${token}`);
    expect(info).toEqual({ token: auth.clientId, clientId: auth.clientId, scopes: [] });
    expect(auth.clientId).toMatch(/^token-[0-9a-f]{16}$/);
    expect(JSON.stringify(info)).not.toContain(token);
    expect(auth.authenticate(`bearer   ${token}`)).toBeDefined();
    for (const header of [
      undefined,
      '',
      token,
      `Bearer`,
      `Bearer ${token}x`,
      `Bearer ${token.slice(1)}`,
      `Token ${token}`,
      `Bearer ${token} extra`,
    ]) {
      expect(auth.authenticate(header), String(header)).toBeUndefined();
    }
  });

  it('derives different principals for different tokens', () => {
    expect(new BearerTokenAuth(token).clientId).not.toBe(new BearerTokenAuth(`${token}-2`).clientId);
  });
});
