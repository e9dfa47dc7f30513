import { RequestOne } from '@nats-io/nats-core/internal';

interface RequestOneInternals {
  timer?: { cancel(): void };
  deferred: { resolve(message: unknown): void };
  mux: { cancel(request: unknown): void };
  resolver: (this: RequestOneInternals, error: unknown, message: unknown) => void;
}

let settled = false;

/**
 * nats.js ends every answered request (requests, JetStream publishes, key-value operations) by cancelling it, and the
 * cancel builds a RequestError, stack trace included, only to reject the promise it has just resolved, which does
 * nothing: 2-3 % of each service's CPU profile. An answered request here is resolved and leaves the connection's
 * inbox exactly as before, without that error; failures and timeouts go through nats.js unchanged. Process-wide and
 * once; throws at start-up if nats.js no longer has the internals it replaces.
 */
export function settleAnsweredRequestsQuietly(): void {
  if (settled) return;
  const prototype = RequestOne.prototype as unknown as RequestOneInternals;
  if (typeof prototype.resolver !== 'function') {
    throw new Error('nats.js RequestOne without resolver: cannot settle answered requests without an error');
  }
  const settleWithNats = prototype.resolver;
  prototype.resolver = function (this: RequestOneInternals, error: unknown, message: unknown) {
    if (error) {
      settleWithNats.call(this, error, message);
      return;
    }
    this.timer?.cancel();
    this.deferred.resolve(message);
    this.mux.cancel(this);
  };
  settled = true;
}
