/**
 * The per-subject request budgets of api-gateway, shared by its replicas: a NATS key-value bucket (in memory) with one
 * key per subject and window (the key is a hash of tenant and subject) holding an ApiRateLimitWindow. Replicas lease
 * parts of a window's budget from it with compare-and-set writes, so all of them together let through at most the
 * limit.
 */
export const API_RATE_LIMITS_BUCKET = 'api_rate_limits';

export interface ApiRateLimitWindow {
  /** When the window began (ms since the epoch, the clock of the replica that opened it). */
  startedAt: number;
  /** Requests the replicas have taken from the window's budget so far. */
  leased: number;
}
