import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';

const KEY_LENGTH = 32;
const COST: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * Hashes passwords and API-key secrets with scrypt (memory-hard, in node:crypto, no native add-on). The format
 * `scrypt$N$r$p$salt$hash` keeps the cost with each hash so it can be raised later without breaking old ones.
 */
@Injectable()
export class SecretHasher {
  /** Hash of a random secret nobody knows: verifying against it costs what a real check costs. */
  private readonly decoy: Promise<string> = this.hash(randomBytes(24).toString('base64url'));

  async hash(secret: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(secret, salt, COST);
    return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(secret: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, expected] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !expected) return false;
    const key = await derive(secret, Buffer.from(salt, 'base64'), {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: COST.maxmem,
    });
    const expectedKey = Buffer.from(expected, 'base64');
    return key.length === expectedKey.length && timingSafeEqual(key, expectedKey);
  }

  /** Spends the same work as `verify` and fails: used when there is no account, so timing reveals nothing. */
  async verifyAgainstDecoy(secret: string): Promise<false> {
    await this.verify(secret, await this.decoy);
    return false;
  }
}
