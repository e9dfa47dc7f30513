import { FixedWindowRateLimiter } from './fixed-window-rate-limiter.js';

describe('FixedWindowRateLimiter', () => {
  it('allows up to the limit per key and window, then refuses with the time left', () => {
    let now = 1_000_000;
    const limiter = new FixedWindowRateLimiter(2, 60_000, () => now);
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('a').allowed).toBe(true);
    now += 15_000;
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect(limiter.hit('b').allowed).toBe(true);
  });

  it('starts a new window once the old one has passed', () => {
    let now = 0;
    const limiter = new FixedWindowRateLimiter(1, 1000, () => now);
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('a').allowed).toBe(false);
    now = 1000;
    expect(limiter.hit('a').allowed).toBe(true);
  });
});
