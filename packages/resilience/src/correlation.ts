import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const storage = new AsyncLocalStorage<string>();

/** A fresh correlation id (UUID v4). */
export function newCorrelationId(): string {
  return randomUUID();
}

/** Runs `fn` with `correlationId` visible to every log line and upstream request made inside it. */
export function withCorrelationId<T>(correlationId: string, fn: () => T): T {
  return storage.run(correlationId, fn);
}

/** The correlation id of the current call, if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore();
}
