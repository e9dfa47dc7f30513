export interface EventuallyOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Probe this often (default 100 ms). */
  intervalMs?: number;
}

/**
 * Probes until `accept` holds: for state that another process or a consumer reaches asynchronously. Fails with the
 * last value probed, so a test that times out says what it saw.
 */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  { timeoutMs = 15_000, intervalMs = 100 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
