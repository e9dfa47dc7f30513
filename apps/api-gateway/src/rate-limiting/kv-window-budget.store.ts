import { createHash } from 'node:crypto';
import { jetstream, StorageType } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { API_RATE_LIMITS_BUCKET, type ApiRateLimitWindow } from '@cpc/contracts';
import { isKvConflict } from '@cpc/nats';
import type { WindowBudgetStore } from './shared-window-rate-limiter.js';

/** RATE_LIMIT_WINDOW_SECONDS' highest value: no window outlives its key, whatever a replica is configured with. */
const LONGEST_WINDOW_MS = 3600 * 1000;

/** The keys name subjects that KV keys cannot spell (colons) and that the bucket need not show: a hash of each. */
function bucketKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

function isWindow(value: unknown): value is ApiRateLimitWindow {
  const window = value as ApiRateLimitWindow | null;
  return Number.isFinite(window?.startedAt) && Number.isFinite(window?.leased);
}

/**
 * The shared windows in the NATS KV bucket API_RATE_LIMITS_BUCKET: in memory (a NATS restart forgets the windows in
 * progress, which then start afresh), one revision per key, keys removed by the bucket's age limit once the longest
 * window has passed since their last write. The bucket is opened on first use and again after a failure, so
 * api-gateway starts and serves while JetStream is away.
 */
export class KvWindowBudgetStore implements WindowBudgetStore {
  private bucket: Promise<KV> | undefined;

  constructor(
    private readonly nats: NatsConnection,
    private readonly timeoutMs: number,
  ) {}

  async read(key: string): Promise<{ window: ApiRateLimitWindow; revision: number } | undefined> {
    const entry = await this.reopenAfterFailure((bucket) => bucket.get(bucketKey(key)));
    if (!entry || entry.operation !== 'PUT') return undefined;
    let value: unknown;
    try {
      value = entry.json();
    } catch {
      value = undefined;
    }
    // Anything else under the key is overwritten by a new window (a start at 0 has long ended).
    return { window: isWindow(value) ? value : { startedAt: 0, leased: 0 }, revision: entry.revision };
  }

  async write(key: string, window: ApiRateLimitWindow, revision: number | undefined): Promise<boolean> {
    const value = JSON.stringify({ startedAt: window.startedAt, leased: window.leased });
    return this.reopenAfterFailure(async (bucket) => {
      try {
        if (revision === undefined) await bucket.create(bucketKey(key), value);
        else await bucket.update(bucketKey(key), value, revision);
        return true;
      } catch (error) {
        if (isKvConflict(error)) return false;
        throw error;
      }
    });
  }

  /** A failure may mean the bucket is gone (a NATS restart forgets memory streams): the next use creates it again. */
  private async reopenAfterFailure<T>(use: (bucket: KV) => Promise<T>): Promise<T> {
    const opened = this.open();
    try {
      return await use(await opened);
    } catch (error) {
      if (this.bucket === opened) this.bucket = undefined;
      throw error;
    }
  }

  private open(): Promise<KV> {
    this.bucket ??= new Kvm(jetstream(this.nats, { timeout: this.timeoutMs }))
      .create(API_RATE_LIMITS_BUCKET, { history: 1, storage: StorageType.Memory, ttl: LONGEST_WINDOW_MS })
      .catch((error: unknown) => {
        this.bucket = undefined;
        throw error;
      });
    return this.bucket;
  }
}
