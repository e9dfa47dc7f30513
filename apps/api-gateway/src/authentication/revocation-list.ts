import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  type AccountRevocation,
  type AccountsRevokedEvent,
  AuthSubjects,
  type ListRevocationsRequest,
  type RevocationPage,
} from '@cpc/contracts';
import { ServiceUnavailableError } from '@cpc/errors';
import { listenForJsonBroadcasts, type ServiceClient } from '@cpc/nats';
import { API_GATEWAY_TUNING } from '../api-gateway.config.js';
import { UnauthorizedError } from './unauthorized.error.js';

/** A revocation is forgotten this long after its time: no access token lives longer (ACCESS_TOKEN_TTL_SECONDS' maximum). */
const RETENTION_SECONDS = 86_400;

export interface RevocationListOptions {
  pollIntervalMs: number;
  maxStalenessMs: number;
  /** How much each poll re-reads before the previous one (default: the gateway's tuning, revocationPollOverlapMs). */
  pollOverlapMs?: number;
  /** Least time between sync attempts while stale (default: the gateway's tuning, revocationStaleRetryMs). */
  staleRetryMs?: number;
  /** How long start-up waits for the first read (default: the gateway's tuning, revocationFirstSyncWaitMs). */
  firstSyncWaitMs?: number;
  /** Spacing of start-up's read attempts (default: the gateway's tuning, revocationFirstSyncRetryMs). */
  firstSyncRetryMs?: number;
  now?: () => number;
}

/** The platform cannot tell whether a token was revoked: 503, so clients retry rather than discard their tokens. */
export class RevocationStateUnavailableError extends ServiceUnavailableError {
  constructor() {
    super('token revocations cannot be checked right now, try again later');
  }
}

/**
 * The accounts whose access tokens were revoked (subject → not before), as auth-service announces them
 * (auth.accounts.revoked.v1, applied at once) and answers them to a poll every pollInterval (which catches a missed
 * announcement). A token whose `iat` is below its subject's time is refused. When no poll succeeded for maxStaleness,
 * the list may lack revocations: every token is refused with 503 until a poll succeeds again (fail closed).
 */
export class RevocationList implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RevocationList.name);
  private readonly notBefore = new Map<string, number>();
  private readonly now: () => number;
  private readonly pollOverlapMs: number;
  private readonly staleRetryMs: number;
  private readonly firstSyncWaitMs: number;
  private readonly firstSyncRetryMs: number;
  /** When the last successful poll started: every revocation committed before it is known. */
  private syncedAt = Number.NEGATIVE_INFINITY;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private changedSince: string | null = null;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private subscription: Subscription | undefined;
  private failing = false;

  constructor(
    private readonly serviceClient: ServiceClient,
    private readonly connection: NatsConnection,
    private readonly options: RevocationListOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.pollOverlapMs = options.pollOverlapMs ?? API_GATEWAY_TUNING.revocationPollOverlapMs;
    this.staleRetryMs = options.staleRetryMs ?? API_GATEWAY_TUNING.revocationStaleRetryMs;
    this.firstSyncWaitMs = options.firstSyncWaitMs ?? API_GATEWAY_TUNING.revocationFirstSyncWaitMs;
    this.firstSyncRetryMs = options.firstSyncRetryMs ?? API_GATEWAY_TUNING.revocationFirstSyncRetryMs;
  }

  /**
   * Subscribes, starts polling, and waits (up to firstSyncWaitMs) for a first successful read before the gateway
   * listens: started beside auth-service, it would otherwise answer its first requests with 503.
   */
  async onApplicationBootstrap(): Promise<void> {
    this.subscription = listenForJsonBroadcasts<AccountsRevokedEvent>(
      this.connection,
      AuthSubjects.accountsRevoked,
      'revocation announcement',
      this.logger,
      (event) => this.apply(event.revocations),
    );
    this.timer = setInterval(() => void this.sync().catch(() => undefined), this.options.pollIntervalMs);
    this.timer.unref();
    const giveUpAt = Date.now() + this.firstSyncWaitMs;
    for (;;) {
      try {
        await this.sync();
        return;
      } catch {
        if (Date.now() >= giveUpAt) return;
        await new Promise((resolve) => setTimeout(resolve, this.firstSyncRetryMs));
      }
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.subscription?.unsubscribe();
  }

  /** Throws UnauthorizedError for a revoked token, RevocationStateUnavailableError while the list is stale. */
  async check(subject: string, issuedAt: number): Promise<void> {
    if (this.isStale()) {
      if (this.inFlight || this.now() - this.lastAttemptAt >= this.staleRetryMs)
        await this.sync().catch(() => undefined);
      if (this.isStale()) throw new RevocationStateUnavailableError();
    }
    const notBefore = this.notBefore.get(subject);
    if (notBefore !== undefined && issuedAt < notBefore) throw new UnauthorizedError('access token revoked');
  }

  /** One poll (shared by concurrent callers): every page of revocations changed since the previous poll. */
  sync(): Promise<void> {
    this.inFlight ??= this.poll().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async poll(): Promise<void> {
    const startedAt = this.now();
    this.lastAttemptAt = startedAt;
    try {
      const request: ListRevocationsRequest = { changedSince: this.changedSince, afterSequence: 0 };
      let asOf: string | undefined;
      for (;;) {
        const page = await this.serviceClient.request<RevocationPage, ListRevocationsRequest>(
          AuthSubjects.listRevocations,
          request,
        );
        asOf ??= page.asOf;
        this.apply(page.revocations);
        if (!page.more) break;
        request.afterSequence = page.lastSequence;
      }
      this.changedSince = new Date(Date.parse(asOf) - this.pollOverlapMs).toISOString();
      this.syncedAt = Math.max(this.syncedAt, startedAt);
      this.forgetExpired();
      if (this.failing) this.logger.log('revocations are read again');
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.logger.warn(
          `cannot read revocations from auth-service (${error instanceof Error ? error.message : String(error)}); ` +
            `tokens are refused ${this.options.maxStalenessMs / 1000} s after the last successful read`,
        );
      this.failing = true;
      throw error;
    }
  }

  private apply(revocations: AccountRevocation[]): void {
    for (const { subject, notBefore } of revocations) {
      if (typeof subject !== 'string' || !Number.isFinite(notBefore)) continue;
      this.notBefore.set(subject, Math.max(this.notBefore.get(subject) ?? 0, notBefore));
    }
  }

  private forgetExpired(): void {
    const oldest = Math.floor(this.now() / 1000) - RETENTION_SECONDS;
    for (const [subject, notBefore] of this.notBefore) {
      if (notBefore < oldest) this.notBefore.delete(subject);
    }
  }

  private isStale(): boolean {
    return this.now() - this.syncedAt > this.options.maxStalenessMs;
  }
}
