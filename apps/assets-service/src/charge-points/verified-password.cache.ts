import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CHARGE_POINT_AUTHENTICATION_CONFIG,
  type ChargePointAuthenticationConfig,
} from './charge-point-authentication.config.js';

interface VerifiedPassword {
  /** The stored scrypt hash the password was verified against: a changed password no longer matches. */
  storedHash: string;
  /** HMAC-SHA256 of the password under this process's own random key. */
  digest: Buffer;
}

/**
 * Remembers, per controller, that a password was verified against its stored scrypt hash, so that the reconnect of
 * a charge point whose password is unchanged costs an HMAC instead of a scrypt run (a gateway restart reconnects a
 * whole fleet at once). Only the right password can hit: a wrong one finds no match and pays the full scrypt check,
 * so guessing gains nothing. The digests are keyed with a random key that never leaves this process, and an entry
 * is only valid for the stored hash it was made for, so a password change (a new hash) takes effect at once.
 */
@Injectable()
export class VerifiedPasswordCache {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, VerifiedPassword>();

  constructor(
    @Inject(CHARGE_POINT_AUTHENTICATION_CONFIG) private readonly config: ChargePointAuthenticationConfig,
  ) {}

  /** Whether `password` was verified against `storedHash` for this controller before. */
  matches(controllerUuid: string, storedHash: string, password: string): boolean {
    const entry = this.entries.get(controllerUuid);
    if (!entry || entry.storedHash !== storedHash) return false;
    return timingSafeEqual(entry.digest, this.digest(password));
  }

  /** Called after scrypt said yes; the oldest entry makes room when the cache is full. */
  remember(controllerUuid: string, storedHash: string, password: string): void {
    if (this.config.verifiedPasswordCacheSize === 0) return;
    this.entries.delete(controllerUuid);
    if (this.entries.size >= this.config.verifiedPasswordCacheSize) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(controllerUuid, { storedHash, digest: this.digest(password) });
  }

  private digest(password: string): Buffer {
    return createHmac('sha256', this.key).update(password, 'utf8').digest();
  }
}
