import { createPublicKey, type KeyObject } from 'node:crypto';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { AuthSubjects, type SigningKeySet } from '@cpc/contracts';
import type { ServiceClient } from '@cpc/nats';
import { API_GATEWAY_TUNING } from '../api-gateway.config.js';

export interface SigningKeyCacheOptions {
  /** An unknown `kid` triggers a refetch, but at most one per this interval: random kids must not flood auth-service. */
  unknownKidRefetchIntervalMs: number;
  /** Keys are re-fetched at least this often (default: the gateway's tuning, signingKeysMaxAgeMs). */
  maxAgeMs?: number;
  now?: () => number;
}

interface KnownKey {
  pem: string;
  key: KeyObject;
}

/**
 * Public keys that verify access tokens, fetched from auth-service over NATS and kept in memory. Key rotations and
 * revocations are broadcast, and clear the cache at once. Kept parsed: given a PEM, jsonwebtoken would parse it again
 * on every request (the largest single cost of a request in the profile of GET location). A refetch keeps the very
 * key object of every key it already had: VerifiedTokenCache trusts a token as long as its kid maps to the object
 * that verified it, so a refetch (after an unknown kid, a change event, or age) forgets only tokens of keys that
 * were removed or replaced.
 */
export class SigningKeyCache implements OnApplicationBootstrap {
  private readonly logger = new Logger(SigningKeyCache.name);
  private keys = new Map<string, KnownKey>();
  private fetchedAt = 0;
  private failedAt = Number.NEGATIVE_INFINITY;
  private lastUnknownKidFetch = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly maxAgeMs: number;

  constructor(
    private readonly serviceClient: ServiceClient,
    private readonly connection: NatsConnection,
    private readonly options: SigningKeyCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? API_GATEWAY_TUNING.signingKeysMaxAgeMs;
  }

  onApplicationBootstrap(): void {
    this.connection.subscribe(AuthSubjects.signingKeysChanged, {
      callback: () => {
        this.fetchedAt = 0;
      },
    });
  }

  async publicKeyFor(kid: string): Promise<KeyObject | undefined> {
    // After a failed refresh the keys held serve until the next try, an interval later: auth-service failing must not
    // cost every request a fetch (and, hung, its timeout).
    const retryAfterFailure = this.now() - this.failedAt >= this.options.unknownKidRefetchIntervalMs;
    if (this.now() - this.fetchedAt > this.maxAgeMs && retryAfterFailure) await this.refresh();
    const known = this.keys.get(kid)?.key;
    if (known) return known;
    // A refetch under way (another request's unknown kid) may bring it: waited for, not refused meanwhile.
    if (this.inFlight) {
      await this.inFlight;
      const fetched = this.keys.get(kid)?.key;
      if (fetched) return fetched;
    }
    if (this.now() - this.lastUnknownKidFetch < this.options.unknownKidRefetchIntervalMs) return undefined;
    this.lastUnknownKidFetch = this.now();
    await this.refresh();
    return this.keys.get(kid)?.key;
  }

  private refresh(): Promise<void> {
    this.inFlight ??= this.serviceClient
      .request<SigningKeySet>(AuthSubjects.listSigningKeys, {})
      .then((set) => {
        this.keys = new Map(
          set.keys.map(({ kid, publicKeyPem: pem }) => {
            const known = this.keys.get(kid);
            return [kid, known?.pem === pem ? known : { pem, key: createPublicKey(pem) }];
          }),
        );
        this.fetchedAt = this.now();
      })
      .catch((error: unknown) => {
        this.failedAt = this.now();
        // Keep verifying with the keys we have; auth-service being down must not log everybody out.
        this.logger.warn(
          `could not refresh signing keys: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }
}
