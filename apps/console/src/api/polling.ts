/**
 * Live updates by polling with backoff: a query that answers is asked again after `baseMs`; after each failure in a
 * row the pause doubles, up to `maxMs`; the first success brings it back to `baseMs`. TanStack Query does not poll
 * hidden tabs (refetchIntervalInBackground is off), so a console left open in the background costs the API nothing.
 */
export interface PollState {
  dataUpdatedAt: number;
  errorUpdatedAt: number;
}

export function backoffDelay(failuresInARow: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(failuresInARow, 16));
}

/** Counts the failures in a row of one query from its state (TanStack Query keeps only the totals). */
export class FailureStreak {
  private count = 0;
  private lastErrorAt = 0;

  update(state: PollState): number {
    if (state.dataUpdatedAt >= state.errorUpdatedAt) {
      this.count = 0;
    } else if (state.errorUpdatedAt !== this.lastErrorAt) {
      this.count += 1;
      this.lastErrorAt = state.errorUpdatedAt;
    }
    return this.count;
  }
}

const streaks = new WeakMap<object, FailureStreak>();

/** A `refetchInterval` for TanStack Query: `baseMs` while answers come, backing off to `maxMs` while they do not. */
export function pollWithBackoff(baseMs: number, maxMs = 30_000) {
  return (query: { state: PollState }): number => {
    let streak = streaks.get(query);
    if (!streak) {
      streak = new FailureStreak();
      streaks.set(query, streak);
    }
    return backoffDelay(streak.update(query.state), baseMs, maxMs);
  };
}

/** Polling intervals of the screens. */
export const POLL = {
  /** What changes while an operator watches: connection status, plug status, a command on its way. */
  liveMs: 2_000,
  /** Lists. */
  listMs: 10_000,
} as const;
