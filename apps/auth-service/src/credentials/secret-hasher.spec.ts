import { ConfigError } from '@cpc/config';
import { ErrorCode } from '@cpc/contracts';
import { loadAuthServiceConfig } from '../auth-service.config.js';
import { HashingAtCapacityError, HashingSlots, SecretHasher } from './secret-hasher.js';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/unused';
const hasherWith = (env: Record<string, string> = {}) =>
  new SecretHasher(loadAuthServiceConfig({ DATABASE_URL, ...env }));

/** A piece of work that ends when the test says so. */
function heldWork(): { work: () => Promise<string>; release: () => void; started: () => boolean } {
  let release = () => {};
  let started = false;
  const done = new Promise<string>((resolve) => {
    release = () => resolve('done');
  });
  return {
    work: () => {
      started = true;
      return done;
    },
    release: () => release(),
    started: () => started,
  };
}

describe('SecretHasher', () => {
  it('hashes with scrypt N=2^17, r=8, p=1 by default and verifies against it', async () => {
    const hasher = hasherWith();
    const stored = await hasher.hash('correct-horse-9');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]{44}$/);
    expect(await hasher.verify('correct-horse-9', stored)).toBe(true);
    expect(hasher.needsRehash(stored)).toBe(false);
  });

  it('verifies hashes of an older cost with their own parameters and asks for a rehash of them', async () => {
    const older = await hasherWith({ SCRYPT_COST_LOG2: '10' }).hash('correct-horse-9');
    expect(older).toMatch(/^scrypt\$1024\$8\$1\$/);
    const current = hasherWith({ SCRYPT_COST_LOG2: '12' });
    expect(await current.verify('correct-horse-9', older)).toBe(true);
    expect(current.needsRehash(older)).toBe(true);
    expect(current.needsRehash(await current.hash('correct-horse-9'))).toBe(false);
  });

  it('refuses damaged hashes and absurd stored costs without computing them', async () => {
    const hasher = hasherWith({ SCRYPT_COST_LOG2: '10' });
    const valid = await hasher.hash('secret-pass');
    const [, , r, p, salt, key] = valid.split('$');
    for (const stored of [
      'bcrypt$whatever',
      `scrypt$1000$${r}$${p}$${salt}$${key}`,
      `scrypt$${2 ** 24}$${r}$${p}$${salt}$${key}`,
      `scrypt$1024$${r}$${p}$${salt}`,
    ]) {
      expect(await hasher.verify('secret-pass', stored)).toBe(false);
      expect(hasher.needsRehash(stored)).toBe(true);
    }
  });

  it('answers a 503 error at once when every hashing slot and waiting place is taken', async () => {
    const hasher = hasherWith({
      SCRYPT_COST_LOG2: '10',
      SCRYPT_MAX_CONCURRENT: '1',
      SCRYPT_MAX_WAITING: '0',
    });
    // The decoy, made when the hasher is, has had its slot and given it back.
    expect(await hasher.verifyAgainstDecoy('secret-pass')).toBe(false);
    const stored = await hasher.hash('secret-pass');
    const first = hasher.verify('secret-pass', stored);
    const error = await hasher.verify('secret-pass', stored).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(HashingAtCapacityError);
    expect((error as HashingAtCapacityError).code).toBe(ErrorCode.ServiceUnavailable);
    expect(await first).toBe(true);
    // The slot is free again.
    expect(await hasher.verify('secret-pass', stored)).toBe(true);
  });
});

describe('HashingSlots', () => {
  it('runs up to the limit at once, lets a bounded number wait, refuses the rest, and hands slots over', async () => {
    const slots = new HashingSlots(2, 1);
    const [a, b, c] = [heldWork(), heldWork(), heldWork()];
    const running = [slots.run(a.work), slots.run(b.work)];
    const waiting = slots.run(c.work);
    await expect(slots.run(() => Promise.resolve('extra'))).rejects.toBeInstanceOf(HashingAtCapacityError);
    expect([a.started(), b.started(), c.started()]).toEqual([true, true, false]);
    a.release();
    await running[0];
    expect(c.started()).toBe(true);
    // Two run (b and c), nobody waits: one more may wait, the one after is refused.
    const d = heldWork();
    const queued = slots.run(d.work);
    await expect(slots.run(() => Promise.resolve('extra'))).rejects.toBeInstanceOf(HashingAtCapacityError);
    b.release();
    c.release();
    d.release();
    expect(await Promise.all([running[1], waiting, queued])).toEqual(['done', 'done', 'done']);
    expect(await slots.run(() => Promise.resolve('after'))).toBe('after');
  });
});

describe('auth-service scrypt settings', () => {
  it('never goes below N=2^17 in production, and allows a lower cost elsewhere (tests)', () => {
    const production = {
      DATABASE_URL,
      NODE_ENV: 'production',
      SIGNING_KEY_ENCRYPTION_SECRET: 'x'.repeat(32),
    };
    expect(loadAuthServiceConfig(production).scryptCostLog2).toBe(17);
    expect(() => loadAuthServiceConfig({ ...production, SCRYPT_COST_LOG2: '12' })).toThrow(ConfigError);
    expect(loadAuthServiceConfig({ DATABASE_URL, SCRYPT_COST_LOG2: '12' }).scryptCostLog2).toBe(12);
  });
});
