import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import {
  DEFAULT_TASK_AFTER_MS,
  DEFAULT_TASK_LISTEN_MAX_IDS,
  DEFAULT_TASK_LISTENS_MAX,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_TTL_MS,
  resolveLimit,
  TASK_POLL_PACE_ENTRIES,
  type Env,
} from './limits.js';
import { TASKS_EXTENSION, type TaskSnapshot } from './task-board.js';

/** The Tasks extension's settings: `runServer`'s `tasks` option, else the environment. */
export interface TaskOptions {
  /** SWITCHYARD_TASK_TTL_MS: how long a task may be kept after it was created (default a day). */
  ttlMs?: number;
  /** SWITCHYARD_TASK_POLL_INTERVAL_MS: the `pollIntervalMs` of every task; faster polls wait (default 1000). */
  pollIntervalMs?: number;
  /** SWITCHYARD_TASK_AFTER_MS: how long a `when-slow` tool works before answering with a task (default 2000). */
  afterMs?: number;
  /** SWITCHYARD_TASK_LISTEN_MAX_IDS: the most task ids one listen is acknowledged for (default 32). */
  listenMaxIds?: number;
  /** SWITCHYARD_TASK_LISTENS_MAX: the most listens for task notifications one process serves (default 256). */
  listensMax?: number;
}

export type TaskSettings = Required<TaskOptions>;

export const DEFAULT_TASK_SETTINGS: TaskSettings = {
  ttlMs: DEFAULT_TASK_TTL_MS,
  pollIntervalMs: DEFAULT_TASK_POLL_INTERVAL_MS,
  afterMs: DEFAULT_TASK_AFTER_MS,
  listenMaxIds: DEFAULT_TASK_LISTEN_MAX_IDS,
  listensMax: DEFAULT_TASK_LISTENS_MAX,
};

export function resolveTaskSettings(options: TaskOptions, env: Env): TaskSettings {
  return {
    ttlMs: resolveLimit('taskTtlMs', options.ttlMs, env),
    pollIntervalMs: resolveLimit('taskPollIntervalMs', options.pollIntervalMs, env),
    afterMs: resolveLimit('taskAfterMs', options.afterMs, env),
    listenMaxIds: resolveLimit('taskListenMaxIds', options.listenMaxIds, env),
    listensMax: resolveLimit('taskListensMax', options.listensMax, env),
  };
}

/** The `data` of the -32021 error a request needing the extension gets when its client does not declare it. */
export const REQUIRED_TASKS = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };

/** True when the request's client capabilities declare the Tasks extension. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> }).extensions;
  return extensions?.[TASKS_EXTENSION] !== undefined && extensions[TASKS_EXTENSION] !== null;
}

/**
 * A fresh task id that names its domain (`<domain>.<128 random bits>`): `tasks/*` reach the domain's board
 * without a lookup, and an id cannot be guessed.
 */
export function mintTaskId(domain: string): string {
  return `${domain}.${randomBytes(16).toString('base64url')}`;
}

/** The domain a task id names, or undefined for an id this server did not mint the shape of. */
export function domainOfTaskId(taskId: string): string | undefined {
  const dot = taskId.indexOf('.');
  return dot <= 0 ? undefined : taskId.slice(0, dot);
}

/** The wire's `Task` (the fields every task result carries) from what the board knows. */
export function taskFields(taskId: string, snapshot: TaskSnapshot, pollIntervalMs: number) {
  return {
    taskId,
    status: snapshot.status,
    ...(snapshot.statusMessage === undefined ? {} : { statusMessage: snapshot.statusMessage }),
    createdAt: snapshot.createdAt.toISOString(),
    lastUpdatedAt: snapshot.lastUpdatedAt.toISOString(),
    ttlMs: snapshot.ttlMs,
    pollIntervalMs,
  };
}

/**
 * Holds each principal to the poll interval per task: a `tasks/get` earlier than `intervalMs` after the previous
 * one (or after the time that one was let through) waits the rest, so a client polling fast is slowed, not
 * refused. One process remembers at most `maxEntries` pairs, the least recently polled dropped first.
 */
export class PollPace {
  /** When the next poll of each (principal, task) may run, in insertion order = least recently polled first. */
  private readonly nextAt = new Map<string, number>();

  constructor(
    private readonly intervalMs: number,
    private readonly maxEntries = TASK_POLL_PACE_ENTRIES,
  ) {}

  async wait(principal: string, taskId: string, signal: AbortSignal): Promise<void> {
    const key = `${principal}\n${taskId}`;
    const now = Date.now();
    const allowedAt = Math.max(now, this.nextAt.get(key) ?? now);
    this.nextAt.delete(key);
    this.nextAt.set(key, allowedAt + this.intervalMs);
    if (this.nextAt.size > this.maxEntries) {
      this.nextAt.delete(this.nextAt.keys().next().value as string);
    }
    if (allowedAt > now) await sleep(allowedAt - now, undefined, { signal });
  }
}
