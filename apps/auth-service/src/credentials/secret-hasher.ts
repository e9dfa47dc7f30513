import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { BoundedWork } from '@cpc/bounded-work';
import { ServiceUnavailableError } from '@cpc/errors';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
/** Stored hashes are trusted, but a damaged one must not ask for gigabytes: N up to 2^20, r up to 32, p up to 16. */
const MAX_STORED_COST = { N: 2 ** 20, r: 32, p: 16 };

interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** scrypt needs about 128·N·r·p bytes; maxmem leaves it room for that and its small buffers, and no more. */
const withMaxmem = (cost: ScryptCost): ScryptOptions => ({
  ...cost,
  maxmem: 128 * cost.N * cost.r * cost.p + 2 ** 24,
});

function derive(secret: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, withMaxmem(cost), (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

/** `scrypt$N$r$p$salt$hash`, or null when the string is not one this hasher can verify. */
function parseHash(stored: string): ParsedHash | null {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key || rest.length > 0) return null;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const valid =
    Number.isSafeInteger(cost.N) &&
    cost.N > 1 &&
    (cost.N & (cost.N - 1)) === 0 &&
    cost.N <= MAX_STORED_COST.N &&
    Number.isSafeInteger(cost.r) &&
    cost.r >= 1 &&
    cost.r <= MAX_STORED_COST.r &&
    Number.isSafeInteger(cost.p) &&
    cost.p >= 1 &&
    cost.p <= MAX_STORED_COST.p;
  return valid ? { cost, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') } : null;
}

/** Answered when every hashing slot and every waiting place is taken: the caller retries, nothing queues without end. */
export class HashingAtCapacityError extends ServiceUnavailableError {
  constructor() {
    super('password hashing is at capacity, retry later');
  }
}

/** Hashing places of the service: at most `maxRunning` at once, `maxWaiting` waiting, the rest refused at once. */
export class HashingSlots extends BoundedWork {
  constructor(maxRunning: number, maxWaiting: number) {
    super(maxRunning, maxWaiting, () => new HashingAtCapacityError());
  }
}

/**
 * Hashes passwords and API-key secrets with scrypt (memory-hard, in node:crypto, no native add-on). The format
 * `scrypt$N$r$p$salt$hash` keeps the cost with each hash: hashes made with an older cost still verify, and
 * `needsRehash` tells the login to replace them. Every computation goes through bounded slots, because each one holds
 * 128·N·r bytes (128 MiB at the default cost) and a libuv thread while it runs.
 */
@Injectable()
export class SecretHasher {
  readonly cost: ScryptCost;
  private readonly slots: HashingSlots;
  /** Hash of a random secret nobody knows, with the current cost: verifying against it costs what a real check costs. */
  private readonly decoy: Promise<string>;

  constructor(@Inject(AUTH_CONFIG) config: AuthServiceConfig) {
    this.cost = { N: 2 ** config.scryptCostLog2, r: BLOCK_SIZE, p: PARALLELISM };
    this.slots = new HashingSlots(config.scryptMaxConcurrent, config.scryptMaxWaiting);
    this.decoy = this.hash(randomBytes(24).toString('base64url'));
    // A failure surfaces at the first use; this only keeps it from being an unhandled rejection meanwhile.
    this.decoy.catch(() => undefined);
  }

  async hash(secret: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.slots.run(() => derive(secret, salt, this.cost));
    const { N, r, p } = this.cost;
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(secret: string, stored: string): Promise<boolean> {
    const parsed = parseHash(stored);
    if (!parsed) return false;
    const key = await this.slots.run(() => derive(secret, parsed.salt, parsed.cost));
    return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
  }

  /** Whether a stored hash was made with another cost than the current one (so the next login replaces it). */
  needsRehash(stored: string): boolean {
    const parsed = parseHash(stored);
    return (
      !parsed ||
      parsed.cost.N !== this.cost.N ||
      parsed.cost.r !== this.cost.r ||
      parsed.cost.p !== this.cost.p ||
      parsed.key.length !== KEY_LENGTH
    );
  }

  /** Spends the same work as `verify` and fails: used when there is no account, so timing reveals nothing. */
  async verifyAgainstDecoy(secret: string): Promise<false> {
    await this.verify(secret, await this.decoy);
    return false;
  }
}
