import type { KeyObject } from 'node:crypto';
import type { Principal } from '@cpc/contracts';
import { API_GATEWAY_TUNING } from '../api-gateway.config.js';

/** Where the cache learns the current key of a `kid`: SigningKeyCache. */
export interface CurrentSigningKeys {
  publicKeyFor(kid: string): Promise<KeyObject | undefined>;
}

interface VerifiedToken {
  principal: Principal;
  kid: string;
  /** The key object that verified the signature: a rotation or revocation replaces or drops it. */
  key: KeyObject;
  /** Seconds since the epoch, from the token's `exp`. */
  expiresAt: number;
  /** Seconds since the epoch, from the token's `iat`: RevocationList compares it on every use. */
  issuedAt: number;
}

export interface VerifiedAccess {
  principal: Principal;
  issuedAt: number;
}

/**
 * Access tokens whose signature and claims were verified, so a client sending the same token again skips the RSA
 * check (the largest CPU cost of a request to the gateway). Every use re-checks what can change since: the token
 * must not have expired (jsonwebtoken's rule: expired from `exp` on) and its key id must still map to the very key
 * that verified it; otherwise the entry is dropped and the token verified from scratch, which gives the same answer
 * and error as without a cache. Bounded: the oldest entry makes room for a new one.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedToken>();

  constructor(
    private readonly keys: CurrentSigningKeys,
    private readonly maxEntries = API_GATEWAY_TUNING.verifiedTokenCacheSize,
    private readonly now: () => number = Date.now,
  ) {}

  async principalFor(token: string): Promise<Principal | undefined> {
    return (await this.accessFor(token))?.principal;
  }

  async accessFor(token: string): Promise<VerifiedAccess | undefined> {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    const valid =
      Math.floor(this.now() / 1000) < entry.expiresAt &&
      (await this.keys.publicKeyFor(entry.kid)) === entry.key;
    if (valid) return { principal: entry.principal, issuedAt: entry.issuedAt };
    this.entries.delete(token);
    return undefined;
  }

  /**
   * Only tokens with a numeric `exp` and `iat` are kept: one without would never be re-checked for expiry or
   * revocation.
   */
  remember(
    token: string,
    principal: Principal,
    kid: string,
    key: KeyObject,
    exp: unknown,
    iat: unknown = 0,
  ): void {
    if (typeof exp !== 'number' || typeof iat !== 'number') return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(token)) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    const frozen = Object.freeze({ ...principal, scopes: Object.freeze([...principal.scopes]) });
    this.entries.set(token, { principal: frozen as Principal, kid, key, expiresAt: exp, issuedAt: iat });
  }

  get size(): number {
    return this.entries.size;
  }
}
