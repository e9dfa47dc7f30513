import type { ApiRateLimitWindow } from '@cpc/contracts';
import { SharedWindowRateLimiter, type WindowBudgetStore } from './shared-window-rate-limiter.js';

/** The store as NATS KV keeps it: one value and revision per key, compare-and-set writes; every call counted. */
class InMemoryBudgetStore implements WindowBudgetStore {
  readonly entries = new Map<string, { window: ApiRateLimitWindow; revision: number }>();
  reads = 0;
  writes = 0;
  private revision = 0;
  /** Runs before a write lands: lets a test put another replica's write in between. */
  beforeWrite: (() => void) | undefined;

  async read(key: string) {
    this.reads += 1;
    await Promise.resolve();
    const entry = this.entries.get(key);
    return entry && { window: { ...entry.window }, revision: entry.revision };
  }

  async write(key: string, window: ApiRateLimitWindow, revision: number | undefined) {
    this.writes += 1;
    await Promise.resolve();
    this.beforeWrite?.();
    if (this.entries.get(key)?.revision !== revision) return false;
    this.revision += 1;
    this.entries.set(key, { window: { ...window }, revision: this.revision });
    return true;
  }
}

const limits = { limit: 5, windowMs: 60_000, leaseShare: 8, leaseAttempts: 10 };

describe('SharedWindowRateLimiter', () => {
  it('lets exactly the limit through two replicas sharing one store, whatever the interleaving', async () => {
    const store = new InMemoryBudgetStore();
    const replicas = [new SharedWindowRateLimiter(store, limits), new SharedWindowRateLimiter(store, limits)];

    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, index) => replicas[index % 2].hit('s')),
    );

    expect(decisions.filter(({ allowed }) => allowed)).toHaveLength(5);
    expect(store.entries.get('s')?.window.leased).toBe(5);
  });

  it('answers refusals from memory until the window ends, then opens a new one with the full budget', async () => {
    let now = 1_000_000;
    const store = new InMemoryBudgetStore();
    const limiter = new SharedWindowRateLimiter(store, limits, () => now);
    for (let request = 0; request < 5; request++) expect((await limiter.hit('s')).allowed).toBe(true);
    expect(await limiter.hit('s')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    const calls = store.reads + store.writes;

    now += 59_001;
    expect(await limiter.hit('s')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(store.reads + store.writes).toBe(calls);

    now += 999;
    expect((await limiter.hit('s')).allowed).toBe(true);
    expect(store.entries.get('s')?.window).toEqual({ startedAt: now, leased: 1 });
  });

  it('leases a share of what is left, so a busy subject writes a few times per window, not once per request', async () => {
    const store = new InMemoryBudgetStore();
    const limiter = new SharedWindowRateLimiter(store, { ...limits, limit: 1200 });
    let allowed = 0;
    for (let request = 0; request < 1300; request++) if ((await limiter.hit('s')).allowed) allowed += 1;

    expect(allowed).toBe(1200);
    // docs/performance.md gives this count.
    expect(store.writes).toBe(42);
  });

  it('leases what the waiting requests need in one write', async () => {
    const store = new InMemoryBudgetStore();
    const limiter = new SharedWindowRateLimiter(store, { ...limits, limit: 100 });

    const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.hit('s')));

    expect(decisions.every(({ allowed }) => allowed)).toBe(true);
    expect(store.writes).toBe(1);
    expect(store.entries.get('s')?.window.leased).toBe(30);
  });

  it('reads again and leases from the new value when another replica wrote in between', async () => {
    const store = new InMemoryBudgetStore();
    const limiter = new SharedWindowRateLimiter(store, limits);
    await limiter.hit('warm-up');
    store.beforeWrite = () => {
      store.beforeWrite = undefined;
      const other = store.entries.get('s');
      store.entries.set('s', {
        window: { startedAt: Date.now(), leased: 4 },
        revision: (other?.revision ?? 0) + 100,
      });
    };

    const decisions = await Promise.all(Array.from({ length: 3 }, () => limiter.hit('s')));

    expect(decisions.map(({ allowed }) => allowed).sort()).toEqual([false, false, true]);
    expect(store.entries.get('s')?.window.leased).toBe(5);
  });

  it('keeps a window another replica opened with its clock ahead, rather than opening one of its own', async () => {
    const store = new InMemoryBudgetStore();
    const now = 1_000_000;
    store.entries.set('s', { window: { startedAt: now + 2_000, leased: 5 }, revision: 1 });
    const limiter = new SharedWindowRateLimiter(store, limits, () => now);

    expect(await limiter.hit('s')).toEqual({ allowed: false, retryAfterSeconds: 62 });
  });

  it('starts a new window over a value that is not a window', async () => {
    const store = new InMemoryBudgetStore();
    store.entries.set('s', { window: { startedAt: 0, leased: 0 }, revision: 7 });
    const limiter = new SharedWindowRateLimiter(store, limits);

    expect((await limiter.hit('s')).allowed).toBe(true);
    expect(store.entries.get('s')?.revision).toBe(1);
  });

  it('rejects every waiting request when the store fails, and after contention beyond its tries', async () => {
    const failing: WindowBudgetStore = {
      read: () => Promise.reject(new Error('JetStream not available')),
      write: () => Promise.resolve(true),
    };
    const limiter = new SharedWindowRateLimiter(failing, limits);
    const outcomes = await Promise.allSettled([limiter.hit('s'), limiter.hit('s')]);
    expect(outcomes.map(({ status }) => status)).toEqual(['rejected', 'rejected']);

    const contended = new SharedWindowRateLimiter(
      { read: () => Promise.resolve(undefined), write: () => Promise.resolve(false) },
      { ...limits, leaseAttempts: 3 },
    );
    await expect(contended.hit('s')).rejects.toThrow('stayed contended for 3 tries');
  });
});
