import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type AuthorizationToken,
  AuthorizationSubjects,
  type IdTokenRevisionsRequest,
  type IdTokenRevisionsResponse,
  type IdTokenSnapshotPage,
  type IdTokenSnapshotRequest,
  type IdTokensChangedBroadcast,
} from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { listenForJsonBroadcasts, NATS_CONNECTION, ServiceClient } from '@cpc/nats';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/** One tenant's tokens as this instance knows them, at `revision`. */
export class TenantTokens {
  private readonly byUuid = new Map<string, AuthorizationToken>();
  private readonly byValue = new Map<string, AuthorizationToken[]>();

  constructor(
    /** Every change up to this one is applied. */
    public revision: number,
    tokens: AuthorizationToken[],
  ) {
    for (const token of tokens) this.put(token);
  }

  /** The tokens with this value (values compare case-insensitively), of any type. */
  withValue(value: string): readonly AuthorizationToken[] {
    return this.byValue.get(value.toLowerCase()) ?? [];
  }

  get size(): number {
    return this.byUuid.size;
  }

  apply(change: IdTokensChangedBroadcast): void {
    for (const uuid of change.deletedUuids) this.remove(uuid);
    for (const token of change.changed) this.put(token);
    this.revision = change.revision;
  }

  private put(token: AuthorizationToken): void {
    this.remove(token.uuid);
    this.byUuid.set(token.uuid, token);
    const key = token.idToken.toLowerCase();
    const same = this.byValue.get(key);
    if (same) same.push(token);
    else this.byValue.set(key, [token]);
  }

  private remove(uuid: string): void {
    const old = this.byUuid.get(uuid);
    if (!old) return;
    this.byUuid.delete(uuid);
    const key = old.idToken.toLowerCase();
    const rest = (this.byValue.get(key) ?? []).filter((token) => token.uuid !== uuid);
    if (rest.length > 0) this.byValue.set(key, rest);
    else this.byValue.delete(key);
  }
}

interface CachedTenant {
  tokens: TenantTokens | undefined;
  loading: Promise<TenantTokens> | undefined;
  /** Changes heard before the ones between are applied (or while loading), by revision. */
  pending: Map<number, IdTokensChangedBroadcast>;
  /** When the last load failed; another is tried idTokenLoadRetryMs later. */
  failedAt: number;
  /**
   * The revision assets-service reported ahead of ours at the previous check; still not reached at the next one
   * (a broadcast was lost, not just on its way): reload.
   */
  behindTarget: number | undefined;
  /** The revision a reload broadcast announced; a load that began before it was committed loads once more. */
  reloadTarget: number;
}

/**
 * Every tenant's id tokens in memory, so that an answer to a charge point never waits on a database: loaded from
 * assets-service page by page on the tenant's first id token, then kept current by the change broadcasts every
 * instance hears (assets.id-token.changed.v1, applied in revision order). Every idTokenSyncIntervalMs the revisions
 * of all cached tenants are compared with assets-service's; a tenant that has not reached, by the next check, the
 * revision it was behind at the last one (a broadcast was lost, not just still on its way) is loaded again. A reload
 * announced while a load is under way loads once more if that load read before it. A change thus reaches the cache
 * within a few milliseconds, and a lost one within two sync intervals and a load.
 */
@Injectable()
export class IdTokenCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdTokenCache.name);
  private readonly tenants = new Map<string, CachedTenant>();
  private syncTimer: NodeJS.Timeout | undefined;
  private syncing = false;

  constructor(
    private readonly services: ServiceClient,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  onModuleInit(): void {
    listenForJsonBroadcasts<IdTokensChangedBroadcast>(
      this.nats,
      AuthorizationSubjects.idTokensChanged,
      'id token change',
      this.logger,
      (change) => this.heard(change),
    );
    this.syncTimer = setInterval(() => void this.sync(), this.config.tuning.idTokenSyncIntervalMs);
    this.syncTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.syncTimer);
  }

  /**
   * The tenant's tokens; loaded first when this instance has none yet. Undefined while assets-service cannot be
   * reached (the caller answers without them).
   */
  async tokensOf(tenantUuid: string): Promise<TenantTokens | undefined> {
    const cached = this.entry(tenantUuid);
    if (cached.tokens) return cached.tokens;
    if (!cached.loading && Date.now() - cached.failedAt < this.config.tuning.idTokenLoadRetryMs)
      return undefined;
    try {
      return await this.load(tenantUuid, cached);
    } catch {
      return undefined;
    }
  }

  private entry(tenantUuid: string): CachedTenant {
    let cached = this.tenants.get(tenantUuid);
    if (!cached) {
      cached = {
        tokens: undefined,
        loading: undefined,
        pending: new Map(),
        failedAt: 0,
        behindTarget: undefined,
        reloadTarget: 0,
      };
      this.tenants.set(tenantUuid, cached);
    }
    return cached;
  }

  private load(tenantUuid: string, cached: CachedTenant): Promise<TenantTokens> {
    cached.loading ??= this.readAll(tenantUuid).then(
      (tokens) => {
        cached.loading = undefined;
        cached.behindTarget = undefined;
        cached.tokens = tokens;
        this.drain(cached);
        const reloadTarget = cached.reloadTarget;
        cached.reloadTarget = 0;
        // This load was already under way when the reload was announced: it may have read before that commit.
        if (tokens.revision < reloadTarget) void this.reload(tenantUuid, cached);
        return tokens;
      },
      (error: unknown) => {
        cached.loading = undefined;
        cached.failedAt = Date.now();
        this.logger.warn(`could not load the id tokens of tenant ${tenantUuid}: ${describeError(error)}`);
        throw error;
      },
    );
    return cached.loading;
  }

  /** Every page; read again when the tenant's revision moved between the first page and the last. */
  private async readAll(tenantUuid: string): Promise<TenantTokens> {
    for (let attempt = 1; ; attempt += 1) {
      const tokens: AuthorizationToken[] = [];
      let afterUuid: string | null = null;
      let first: number | undefined;
      let last = 0;
      do {
        const page: IdTokenSnapshotPage = await this.services.request<
          IdTokenSnapshotPage,
          IdTokenSnapshotRequest
        >(AuthorizationSubjects.idTokenSnapshot, {
          tenantUuid,
          afterUuid,
          limit: this.config.tuning.idTokenSnapshotPageSize,
        });
        first ??= page.revision;
        last = page.revision;
        tokens.push(...page.tokens);
        afterUuid = page.nextAfterUuid;
      } while (afterUuid !== null);
      // Equal revisions: nothing was written in between, the pages are one consistent picture.
      if (first === last || attempt >= this.config.tuning.idTokenLoadAttempts)
        return new TenantTokens(last, tokens);
    }
  }

  private heard(change: IdTokensChangedBroadcast): void {
    const cached = this.tenants.get(change.tenantUuid);
    if (!cached) return;
    if (change.reload) {
      if (!cached.tokens || change.revision > cached.tokens.revision) {
        if (cached.loading) cached.reloadTarget = Math.max(cached.reloadTarget, change.revision);
        else void this.reload(change.tenantUuid, cached);
      }
      return;
    }
    cached.pending.set(change.revision, change);
    this.drain(cached);
  }

  /** Applies the pending changes that follow the cached revision without a gap; drops those already contained. */
  private drain(cached: CachedTenant): void {
    const tokens = cached.tokens;
    if (!tokens || cached.loading) return;
    for (const revision of [...cached.pending.keys()]) {
      if (revision <= tokens.revision) cached.pending.delete(revision);
    }
    for (
      let next = cached.pending.get(tokens.revision + 1);
      next;
      next = cached.pending.get(tokens.revision + 1)
    ) {
      cached.pending.delete(next.revision);
      tokens.apply(next);
    }
  }

  private reload(tenantUuid: string, cached: CachedTenant): Promise<void> {
    return this.load(tenantUuid, cached).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Compares every cached tenant's revision with assets-service's; one request for all of them. */
  private async sync(): Promise<void> {
    const loaded = [...this.tenants.entries()].filter(([, cached]) => cached.tokens && !cached.loading);
    if (this.syncing || loaded.length === 0) return;
    this.syncing = true;
    try {
      const { revisions } = await this.services.request<IdTokenRevisionsResponse, IdTokenRevisionsRequest>(
        AuthorizationSubjects.idTokenRevisions,
        { tenantUuids: loaded.map(([tenantUuid]) => tenantUuid) },
      );
      loaded.forEach(([tenantUuid, cached], index) => {
        const current = revisions[index];
        if (!cached.tokens || current === undefined || current <= cached.tokens.revision) {
          cached.behindTarget = undefined;
        } else if (cached.behindTarget === undefined || cached.tokens.revision >= cached.behindTarget) {
          // Behind for the first time, or behind a newer change after catching up with the last one: on its way.
          cached.behindTarget = current;
        } else {
          this.logger.warn(`tenant ${tenantUuid}: id token changes were missed; loading its tokens again`);
          void this.reload(tenantUuid, cached);
        }
      });
    } catch (error) {
      this.logger.debug(`id token revision check failed: ${describeError(error)}`);
    } finally {
      this.syncing = false;
    }
  }
}
