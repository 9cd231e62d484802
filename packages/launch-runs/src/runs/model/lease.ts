import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { RunRow } from '../../db/schema.js';

/**
 * Lease tokens name the executor that may work on a run: `<host>|<pid>|<process instance>|<nonce>`. Tokens of
 * executors alive in this process are kept here, the one registry of what this process holds (process-wide, so
 * several modules in one process agree): minted for a lease being taken, then with the work holding it
 * (runs/lease.ts) until that work lets go. A token of this process instance but not alive here, or of this
 * host whose process is gone, is dead at once; anything else (another host, or another container that happens
 * to share host name and pid) is dead when its expiry passes.
 */
const liveTokens = new Map<string, HeldHere | undefined>();
const HOST = os.hostname().replace(/\|/g, '_');
const INSTANCE = randomUUID();

/** A lease this process holds: until released, work under it may still be in the run's workspace. */
export interface HeldHere {
  readonly runId: string;
  readonly working: boolean;
  abort(reason: 'cancelled'): void;
}

export function newLeaseToken(): string {
  const token = `${HOST}|${process.pid}|${INSTANCE}|${randomUUID()}`;
  liveTokens.set(token, undefined);
  return token;
}

export function retireLeaseToken(token: string): void {
  liveTokens.delete(token);
}

/** Records `lease` as the holder of its live token, until the token is retired. */
export function holdHere(token: string, lease: HeldHere): void {
  if (liveTokens.has(token)) liveTokens.set(token, lease);
}

/** The leases of `runId` this process holds. */
export function heldHere(runId: string): HeldHere[] {
  return [...liveTokens.values()].filter((lease): lease is HeldHere => lease?.runId === runId);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type LeaseColumns = Pick<RunRow, 'leaseOwner' | 'leaseExpiresMs'>;

/** The lease's owner while its expiry has not passed. */
function unexpiredOwner({ leaseOwner, leaseExpiresMs }: LeaseColumns, nowMs: number): string | undefined {
  return leaseOwner === null || leaseExpiresMs === null || leaseExpiresMs <= nowMs ? undefined : leaseOwner;
}

/** Whether someone is working on the run right now. */
export function isLeaseLive(lease: LeaseColumns, nowMs: number): boolean {
  const owner = unexpiredOwner(lease, nowMs);
  if (owner === undefined) return false;
  const [host, pidText, instance] = owner.split('|');
  if (host !== HOST) return true;
  if (instance === INSTANCE) return liveTokens.has(owner);
  const pid = Number(pidText);
  if (pid === process.pid) return true;
  return Number.isInteger(pid) && pid > 0 && processAlive(pid);
}

/**
 * A lease this process gave up a moment ago: its token is retired here, while a row read before the
 * release committed still names it (and looks interrupted). The release is written before the token is
 * retired, so reading the row again shows it released.
 */
export function isRetiredHereLately(lease: LeaseColumns, nowMs: number): boolean {
  const owner = unexpiredOwner(lease, nowMs);
  return owner !== undefined && owner.split('|')[2] === INSTANCE && !liveTokens.has(owner);
}
