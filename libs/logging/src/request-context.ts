import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestContext {
  requestId: string;
  /** When the caller stops waiting for the answer (Date.now() milliseconds of this process), if it said. */
  deadlineAt?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `fn` with a request id that every log line and every outgoing NATS request inside it will carry, and the moment
 * its caller stops waiting, if known (see requestDeadlinePassed).
 */
export function runWithRequestId<T>(requestId: string | undefined, fn: () => T, deadlineAt?: number): T {
  return storage.run({ requestId: requestId ?? randomUUID(), deadlineAt }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** When the caller of the request being handled stops waiting (Date.now() milliseconds), if it said. */
export function currentRequestDeadline(): number | undefined {
  return storage.getStore()?.deadlineAt;
}

/** Whether the request being handled has a deadline and it has passed (its caller no longer waits for the answer). */
export function requestDeadlinePassed(now: number = Date.now()): boolean {
  const deadlineAt = currentRequestDeadline();
  return deadlineAt !== undefined && now >= deadlineAt;
}

/**
 * Runs `fn` outside any request: for work a request sets going that outlives it and serves others too (an outbox
 * relay run, a delivery round), which must neither carry its id nor stop at its deadline.
 */
export function runOutsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}
