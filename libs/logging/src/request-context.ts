import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestContext {
  requestId: string;
  /** When the caller stops waiting for the answer (Date.now() milliseconds of this process), if it said. */
  deadlineAt?: number;
  /** Whether the request has begun its work (see noteRequestWorkStarted). */
  workStarted?: boolean;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `fn` with a request id that every log line and every outgoing NATS request inside it will carry, and the moment
 * its caller stops waiting, if known (see requestAbandoned).
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

/**
 * Whether the request being handled is abandoned: its caller has stopped waiting (its deadline passed) before the
 * request began its work. A request that has begun is finished whatever its deadline, so that nothing it does is left
 * half-done.
 */
export function requestAbandoned(now: number = Date.now()): boolean {
  const context = storage.getStore();
  return context?.deadlineAt !== undefined && !context.workStarted && now >= context.deadlineAt;
}

/** Notes that the request being handled has begun its work (its first statement): it is not abandoned from now on. */
export function noteRequestWorkStarted(): void {
  const context = storage.getStore();
  if (context) context.workStarted = true;
}

/**
 * Runs `fn` outside any request: for work a request sets going that outlives it and serves others too (an outbox
 * relay run, a delivery round), which must neither carry its id nor stop at its deadline.
 */
export function runOutsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}
