import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { WebhookBroadcastSubjects, type WebhookSubscriptionChangedNotice, isUuid } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { listenForJsonBroadcasts, NATS_CONNECTION, onNatsReconnect } from '@cpc/nats';
import { DataSource } from 'typeorm';
import {
  enabledSubscription,
  enabledSubscriptions,
  type IndexedSubscriptionRow,
} from '../repositories/subscriptions.repository.js';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';

interface IndexedSubscription {
  eventTypes: ReadonlySet<string>;
  controllerUuid: string | null;
}

/**
 * The enabled subscriptions of every tenant, in memory, so that an event no subscription can match costs no statement
 * (most events: most tenants subscribe to little or nothing). It only decides "could a row be inserted": a match here
 * still runs fanOutEvents, whose WHERE decides for real (the location filter included), so a subscription disabled or
 * deleted elsewhere and still listed here costs a statement, never a wrong row.
 *
 * Kept current by: a change made through this replica (the API, the delivery worker disabling one), read again before
 * the change is answered; a change made through another replica, read again when its notice arrives
 * (webhooks.subscription.changed.v1, core NATS); a full reload when the NATS connection is back (notices may have
 * been lost meanwhile) and every subscriptionIndexReloadIntervalMs. Every read runs after the previous one finished,
 * so a slow full reload never overwrites a newer read. Until the first load, and after a read failed until a full
 * reload succeeds, it answers "could match" for everything: events then run the statement as they did without it.
 */
@Injectable()
export class SubscriptionIndex implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SubscriptionIndex.name);
  /** tenant uuid → subscription uuid → what the fan-out asks of it; undefined while not known (fallback). */
  private byTenant: Map<string, Map<string, IndexedSubscription>> | undefined;
  /** The reads, one after the other. */
  private reads: Promise<void> = Promise.resolve();
  private readonly notEnabledListeners: ((subscriptionUuid: string) => void)[] = [];
  private reloadTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(WEBHOOK_SERVICE_CONFIG) private readonly config: WebhookServiceConfig,
  ) {}

  /** Listens for notices before the first load, so no change falls between the two. */
  async onModuleInit(): Promise<void> {
    listenForJsonBroadcasts<WebhookSubscriptionChangedNotice>(
      this.nats,
      WebhookBroadcastSubjects.subscriptionChanged,
      'subscription notice',
      this.logger,
      (notice) => {
        if (isUuid(notice?.subscriptionUuid)) void this.readOne(notice.subscriptionUuid);
      },
    );
    onNatsReconnect(this.nats, () => void this.reload());
    this.reloadTimer = setInterval(
      () => void this.reload(),
      this.config.tuning.subscriptionIndexReloadIntervalMs,
    );
    this.reloadTimer.unref();
    await this.reload();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.reloadTimer);
    clearTimeout(this.retryTimer);
  }

  /** Whether it is loaded: otherwise couldMatch answers true for everything. */
  get loaded(): boolean {
    return this.byTenant !== undefined;
  }

  /** Whether any tenant has an enabled subscription. True while the index is not known. */
  get anyEnabled(): boolean {
    if (this.byTenant === undefined) return true;
    for (const subscriptions of this.byTenant.values()) if (subscriptions.size > 0) return true;
    return false;
  }

  /**
   * Whether an enabled subscription of the tenant wants this event type and no controller filter rules it out (a
   * location filter cannot be judged here: it could match). True while the index is not known.
   */
  couldMatch(tenantUuid: string, eventType: string, controllerUuid: string | null): boolean {
    if (this.byTenant === undefined) return true;
    const subscriptions = this.byTenant.get(tenantUuid);
    if (!subscriptions) return false;
    for (const subscription of subscriptions.values()) {
      if (
        subscription.eventTypes.has(eventType) &&
        (subscription.controllerUuid === null || subscription.controllerUuid === controllerUuid)
      )
        return true;
    }
    return false;
  }

  /**
   * Calls `listener` with each subscription that a read finds no longer enabled (disabled or deleted, here or on
   * another replica) while it was in the index.
   */
  onNoLongerEnabled(listener: (subscriptionUuid: string) => void): void {
    this.notEnabledListeners.push(listener);
  }

  /**
   * A subscription changed through this replica (committed): read again here, and the other replicas told. Resolves
   * once this replica's index has it (or, when the read failed, falls back to the statement for every event).
   */
  async changed(subscriptionUuid: string): Promise<void> {
    const notice: WebhookSubscriptionChangedNotice = { subscriptionUuid };
    try {
      this.nats.publish(WebhookBroadcastSubjects.subscriptionChanged, JSON.stringify(notice));
    } catch (error) {
      // The others catch up at their next full reload (or when their connection is back).
      this.logger.warn(`could not announce subscription ${subscriptionUuid}: ${describeError(error)}`);
    }
    await this.readOne(subscriptionUuid);
  }

  /** Reads every enabled subscription again (after the reads queued before it). */
  reload(): Promise<void> {
    return this.queue(async () => {
      const rows = await runStatement(this.dataSource, enabledSubscriptions, {});
      const byTenant = new Map<string, Map<string, IndexedSubscription>>();
      for (const row of rows) put(byTenant, row);
      const before = this.byTenant;
      this.byTenant = byTenant;
      for (const [tenantUuid, subscriptions] of before ?? []) {
        for (const subscriptionUuid of subscriptions.keys()) {
          if (!byTenant.get(tenantUuid)?.has(subscriptionUuid)) this.noLongerEnabled(subscriptionUuid);
        }
      }
    });
  }

  private readOne(subscriptionUuid: string): Promise<void> {
    return this.queue(async () => {
      const [row] = await runStatement(this.dataSource, enabledSubscription, { uuid: subscriptionUuid });
      // Not known (the first load has not succeeded yet): the next full reload reads this change too.
      if (this.byTenant === undefined) return;
      let wasEnabled = false;
      for (const [tenantUuid, subscriptions] of this.byTenant) {
        if (!subscriptions.delete(subscriptionUuid)) continue;
        wasEnabled = true;
        if (subscriptions.size === 0) this.byTenant.delete(tenantUuid);
      }
      if (row) put(this.byTenant, row);
      else if (wasEnabled) this.noLongerEnabled(subscriptionUuid);
    });
  }

  private noLongerEnabled(subscriptionUuid: string): void {
    for (const listener of this.notEnabledListeners) listener(subscriptionUuid);
  }

  /**
   * Runs `read` after the reads before it. A failed read leaves the index unknown (every event runs the statement)
   * until a full reload, tried again subscriptionIndexRetryMs later, succeeds.
   */
  private queue(read: () => Promise<void>): Promise<void> {
    const done = this.reads.then(read).catch((error: unknown) => {
      this.byTenant = undefined;
      this.logger.warn(`subscription index unknown, every event runs its fan-out: ${describeError(error)}`);
      if (this.stopped) return;
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => void this.reload(), this.config.tuning.subscriptionIndexRetryMs);
      this.retryTimer.unref();
    });
    this.reads = done;
    return done;
  }
}

function put(byTenant: Map<string, Map<string, IndexedSubscription>>, row: IndexedSubscriptionRow): void {
  let subscriptions = byTenant.get(row.tenant_uuid);
  if (!subscriptions) {
    subscriptions = new Map();
    byTenant.set(row.tenant_uuid, subscriptions);
  }
  subscriptions.set(row.uuid, {
    eventTypes: new Set(row.event_types),
    controllerUuid: row.controller_uuid,
  });
}
