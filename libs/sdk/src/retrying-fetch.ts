/** How the SDK waits and retries when the API answers 429 (or 503 with Retry-After). */
export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First back-off when the answer has no Retry-After; doubled each retry, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** No wait is longer than this, Retry-After included (default 30 s). */
  maxDelayMs?: number;
}

export type Sleep = (ms: number) => Promise<void>;
export type Fetch = (request: Request) => Promise<Response>;

const defaultSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait a Retry-After header asks for, in ms: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when
 * absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function isRetryable(response: Response): boolean {
  return response.status === 429 || (response.status === 503 && response.headers.has('retry-after'));
}

/**
 * A fetch that retries requests the API refused for load (429, and 503 with Retry-After): it waits what Retry-After
 * says, else an exponential back-off with full jitter, up to `maxRetries` times, then hands the last answer back.
 */
export function retryingFetch(fetch: Fetch, options: RetryOptions = {}, sleep: Sleep = defaultSleep): Fetch {
  const maxRetries = options.maxRetries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30000;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // A Request's body can be read once: each attempt sends a copy.
      const response = await fetch(attempt < maxRetries ? request.clone() : request);
      if (!isRetryable(response) || attempt >= maxRetries) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      const backOff = Math.random() * baseDelayMs * 2 ** attempt;
      await response.body?.cancel();
      await sleep(Math.min(maxDelayMs, asked ?? backOff));
    }
  };
}
