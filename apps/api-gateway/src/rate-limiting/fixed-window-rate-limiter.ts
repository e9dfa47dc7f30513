export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the window that refused the request ends. */
  retryAfterSeconds: number;
}

/**
 * Counts hits per key in fixed windows, in this process alone: what a replica falls back to while the shared budgets
 * (SharedWindowRateLimiter) cannot be used.
 */
export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { startedAt: number; hits: number }>();
  private lastSweep = Date.now();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string): RateLimitDecision {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      window = { startedAt: now, hits: 0 };
      this.windows.set(key, window);
    }
    window.hits += 1;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
    return { allowed: window.hits <= this.limit, retryAfterSeconds };
  }

  /** Drops finished windows now and then, so keys of past clients do not pile up. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= this.windowMs) this.windows.delete(key);
    }
  }
}
