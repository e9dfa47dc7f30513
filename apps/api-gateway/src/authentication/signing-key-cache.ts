import { createPublicKey, type KeyObject } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { AuthSubjects, type SigningKeySet } from '@cpc/contracts';
import { NATS_CONNECTION, ServiceClient } from '@cpc/nats';
import { describeError } from '@cpc/errors';

/** Keys are re-fetched at least this often, so retired keys age out even if a change event was missed. */
const MAX_AGE_MS = 5 * 60_000;
/** An unknown `kid` triggers a refetch, but not more often than this: random kids must not flood auth-service. */
const UNKNOWN_KID_REFETCH_INTERVAL_MS = 5_000;

/**
 * Public keys that verify access tokens, fetched from auth-service over NATS and kept in memory. Key rotations and
 * revocations are broadcast, and clear the cache at once. Kept parsed: given a PEM, jsonwebtoken would parse it again
 * on every request (the largest single cost of a request in the profile of GET location).
 */
@Injectable()
export class SigningKeyCache implements OnApplicationBootstrap {
  private readonly logger = new Logger(SigningKeyCache.name);
  private keys = new Map<string, KeyObject>();
  private fetchedAt = 0;
  private lastUnknownKidFetch = 0;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly serviceClient: ServiceClient,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  onApplicationBootstrap(): void {
    this.connection.subscribe(AuthSubjects.signingKeysChanged, {
      callback: () => {
        this.fetchedAt = 0;
      },
    });
  }

  async publicKeyFor(kid: string): Promise<KeyObject | undefined> {
    if (Date.now() - this.fetchedAt > MAX_AGE_MS) await this.refresh();
    const known = this.keys.get(kid);
    if (known || Date.now() - this.lastUnknownKidFetch < UNKNOWN_KID_REFETCH_INTERVAL_MS) return known;
    this.lastUnknownKidFetch = Date.now();
    await this.refresh();
    return this.keys.get(kid);
  }

  private refresh(): Promise<void> {
    this.inFlight ??= this.serviceClient
      .request<SigningKeySet>(AuthSubjects.listSigningKeys, {})
      .then((set) => {
        this.keys = new Map(set.keys.map((key) => [key.kid, createPublicKey(key.publicKeyPem)]));
        this.fetchedAt = Date.now();
      })
      .catch((error: unknown) => {
        // Keep verifying with the keys we have; auth-service being down must not log everybody out.
        this.logger.warn(`could not refresh signing keys: ${describeError(error)}`);
      })
      .finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }
}
