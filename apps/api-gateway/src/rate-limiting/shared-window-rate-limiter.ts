import type { ApiRateLimitWindow } from '@cpc/contracts';
import type { RateLimitDecision } from './fixed-window-rate-limiter.js';

/** The store the replicas share their windows in (NATS KV in production, see KvWindowBudgetStore). */
export interface WindowBudgetStore {
  read(key: string): Promise<{ window: ApiRateLimitWindow; revision: number } | undefined>;
  /** Writes the window unless the key changed since `revision` was read (undefined: unless it exists); false then. */
  write(key: string, window: ApiRateLimitWindow, revision: number | undefined): Promise<boolean>;
}

export interface SharedWindowLimits {
  limit: number;
  windowMs: number;
  /** A lease takes at least this fraction's inverse of what is left (1/8 at 8), so hot subjects rarely write. */
  leaseShare: number;
  /** Compare-and-set tries of one lease before it gives up (the caller then counts locally). */
  leaseAttempts: number;
}

/** This replica's part of one key's window: requests leased from the shared budget and not used yet. */
interface LeasedBudget {
  windowEndsAt: number;
  available: number;
  /** The shared budget had nothing left for this window: refused here until it ends, without asking again. */
  exhausted: boolean;
  /** Requests waiting for the lease in flight: the lease asks for at least as many. */
  waiting: number;
  lease: Promise<void> | undefined;
}

const secondsUntil = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));

/**
 * Fixed windows per key whose budget all replicas share: a window's first request opens it in the store, and each
 * replica leases parts of its budget with compare-and-set writes, so the replicas together let through at most the
 * limit. A lease covers the requests waiting for it and at least `1/leaseShare` of what is left: a busy subject costs a
 * few writes per window, and near the limit leases shrink to single requests, so what one replica holds unused while
 * another is refused stays small. Refusals are answered from memory until the window ends.
 */
export class SharedWindowRateLimiter {
  private readonly budgets = new Map<string, LeasedBudget>();
  private lastSweep: number;

  constructor(
    private readonly store: WindowBudgetStore,
    private readonly limits: SharedWindowLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweep = now();
  }

  /** Counts one request of the key; rejects when the store cannot be used (unreachable, or contended too long). */
  async hit(key: string): Promise<RateLimitDecision> {
    for (;;) {
      const now = this.now();
      this.sweep(now);
      let budget = this.budgets.get(key);
      if (budget && !budget.lease && now >= budget.windowEndsAt) {
        this.budgets.delete(key);
        budget = undefined;
      }
      if (budget && !budget.lease) {
        const retryAfterSeconds = secondsUntil(budget.windowEndsAt, now);
        if (budget.available > 0) {
          budget.available -= 1;
          return { allowed: true, retryAfterSeconds };
        }
        if (budget.exhausted) return { allowed: false, retryAfterSeconds };
      }
      if (!budget) {
        budget = { windowEndsAt: 0, available: 0, exhausted: false, waiting: 0, lease: undefined };
        this.budgets.set(key, budget);
      }
      const leased = budget;
      leased.waiting += 1;
      try {
        leased.lease ??= this.lease(key, leased).finally(() => {
          leased.lease = undefined;
        });
        await leased.lease;
      } finally {
        leased.waiting -= 1;
      }
    }
  }

  private async lease(key: string, budget: LeasedBudget): Promise<void> {
    const { limit, windowMs, leaseShare, leaseAttempts } = this.limits;
    for (let attempt = 0; attempt < leaseAttempts; attempt++) {
      const found = await this.store.read(key);
      const now = this.now();
      // A window opened by a replica whose clock is ahead counts as open: resetting it would give the subject more.
      const open = found !== undefined && now < found.window.startedAt + windowMs;
      const window = open ? found.window : { startedAt: now, leased: 0 };
      const windowEndsAt = window.startedAt + windowMs;
      const left = limit - window.leased;
      if (left <= 0) {
        Object.assign(budget, { windowEndsAt, available: 0, exhausted: true });
        return;
      }
      const grant = Math.min(left, Math.max(budget.waiting, Math.ceil(left / leaseShare)));
      const taken = { startedAt: window.startedAt, leased: window.leased + grant };
      if (await this.store.write(key, taken, found?.revision)) {
        const kept = budget.windowEndsAt === windowEndsAt ? budget.available : 0;
        Object.assign(budget, { windowEndsAt, available: kept + grant, exhausted: false });
        return;
      }
    }
    throw new Error(`the shared request budget stayed contended for ${leaseAttempts} tries`);
  }

  /** Drops finished windows now and then, so keys of past clients do not pile up. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.limits.windowMs) return;
    this.lastSweep = now;
    for (const [key, budget] of this.budgets) {
      if (!budget.lease && now >= budget.windowEndsAt) this.budgets.delete(key);
    }
  }
}
