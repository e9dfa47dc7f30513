/** The retry numbers of WebhookServiceTuning. */
export interface RetryTuning {
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
}

/** Jitter: each delay is the nominal one times a factor in [1 - JITTER, 1 + JITTER). */
export const RETRY_JITTER = 0.2;
/** Doublings counted at most, so the power stays a finite number long after it passed maxRetryDelayMs. */
const MAX_DOUBLINGS = 30;

/**
 * The pause after the `attempts`-th failed attempt: firstRetryDelayMs doubled per attempt (5 s, 10 s, 20 s, … ), at
 * most maxRetryDelayMs (1 h), with ±20 % jitter so receivers coming back are not hit by every retry at once.
 */
export function retryDelayMs(
  attempts: number,
  tuning: RetryTuning,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), MAX_DOUBLINGS);
  const nominal = Math.min(tuning.firstRetryDelayMs * 2 ** exponent, tuning.maxRetryDelayMs);
  return Math.round(nominal * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
