import { describe, expect, it } from 'vitest';
import {
  isLeaseLive,
  isRetiredHereLately,
  newLeaseToken,
  retireLeaseToken,
} from '../src/runs/model/lease.js';

const NOW = 1_000_000;
const lease = (leaseOwner: string, leaseExpiresMs = NOW + 30_000) => ({ leaseOwner, leaseExpiresMs });

describe('lease tokens', () => {
  it('a token this process retired is dead at once, and reads as released a moment ago', () => {
    const token = newLeaseToken();
    expect(isLeaseLive(lease(token), NOW)).toBe(true);
    expect(isRetiredHereLately(lease(token), NOW)).toBe(false);
    retireLeaseToken(token);
    expect(isLeaseLive(lease(token), NOW)).toBe(false);
    // launch_get_status reads the row again instead of reporting the run interrupted.
    expect(isRetiredHereLately(lease(token), NOW)).toBe(true);
    expect(isRetiredHereLately(lease(token, NOW - 1), NOW)).toBe(false);
  });

  it('a token of another process instance with this host name and pid lives until it expires', () => {
    const [host, pid] = newLeaseToken().split('|');
    const elsewhere = `${host}|${pid}|another-instance|nonce`;
    expect(isLeaseLive(lease(elsewhere), NOW)).toBe(true);
    expect(isLeaseLive(lease(elsewhere, NOW), NOW)).toBe(false);
    expect(isRetiredHereLately(lease(elsewhere), NOW)).toBe(false);
  });

  it('a token of another host lives until it expires', () => {
    expect(isLeaseLive(lease('other-host|1|instance|nonce'), NOW)).toBe(true);
    expect(isLeaseLive(lease('other-host|1|instance|nonce', NOW - 1), NOW)).toBe(false);
  });
});
