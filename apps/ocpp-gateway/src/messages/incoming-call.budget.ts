/** What the budget says about one incoming call. */
export type BudgetVerdict = 'admitted' | 'refused' | 'exhausted';

export interface IncomingCallBudgetLimits {
  /** Calls a charge point may send at once after a quiet spell (the bucket's capacity). */
  burst: number;
  /** Calls per second the bucket refills with, the rate a charge point may keep up. */
  perSecond: number;
  /** Refused calls in a row after which the socket is closed. */
  refusalsBeforeClose: number;
}

/**
 * A token bucket of one charge point's incoming calls: each call takes a token, tokens come back at `perSecond` up to
 * `burst`. Three numbers per socket, refilled lazily when a call arrives (no timers), on the monotonic clock.
 */
export class IncomingCallBudget {
  private tokens: number;
  private refilledAt: number;
  private refusedInARow = 0;

  constructor(
    private readonly limits: IncomingCallBudgetLimits,
    now: number = performance.now(),
  ) {
    this.tokens = limits.burst;
    this.refilledAt = now;
  }

  /** `exhausted`: refused, and the charge point kept sending past the refusals it is allowed in a row. */
  take(now: number = performance.now()): BudgetVerdict {
    const elapsedSeconds = Math.max(0, now - this.refilledAt) / 1000;
    this.tokens = Math.min(this.limits.burst, this.tokens + elapsedSeconds * this.limits.perSecond);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.refusedInARow = 0;
      return 'admitted';
    }
    this.refusedInARow += 1;
    return this.refusedInARow >= this.limits.refusalsBeforeClose ? 'exhausted' : 'refused';
  }
}
