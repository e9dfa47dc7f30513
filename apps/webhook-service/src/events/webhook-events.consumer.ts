import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandSubjects, type EventEnvelope, isUuid } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource } from 'typeorm';
import { DeliverySignal } from '../delivery/delivery-signal.js';
import { claimSessionUpdate, fanOutEvent, forgetSession } from '../repositories/deliveries.repository.js';
import { hasLocationFilter } from '../repositories/subscriptions.repository.js';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';
import { ControllerLocations } from './controller-locations.js';
import { toWebhookEvent, webhookBody } from './webhook-event-mapping.js';

/** Durable names cannot hold dots; both are listed in NATS_USERS. */
export const CHARGE_POINT_EVENTS_CONSUMER = 'webhook-service_charge-point-events';
export const COMMAND_STATUS_CONSUMER = 'webhook-service_command-status';

/**
 * Turns platform events into delivery rows: one per matching subscription, written before the event is acknowledged
 * (a crash in between redelivers it, and the unique (event, subscription) keeps it at one row). Each consumer handles
 * its events one after the other, in stream order, so the rows of one controller or command are numbered (seq) in
 * the order the events happened.
 */
@Injectable()
export class WebhookEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookEventsConsumer.name);

  constructor(
    private readonly eventBus: JetStreamEventBus,
    private readonly dataSource: DataSource,
    private readonly locations: ControllerLocations,
    private readonly signal: DeliverySignal,
    @Inject(WEBHOOK_SERVICE_CONFIG) private readonly config: WebhookServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { tuning } = this.config;
    const common = {
      retryDelayMs: tuning.eventRetryDelayMs,
      maxAckPending: tuning.eventMaxAckPending,
      pullBatchSize: tuning.eventPullBatchSize,
    };
    const handler = (subject: string, event: EventEnvelope<unknown>) => this.handle(subject, event);
    await this.eventBus.consume(
      { ...common, durableName: CHARGE_POINT_EVENTS_CONSUMER, filterSubject: 'events.charge-point.>' },
      handler,
    );
    await this.eventBus.consume(
      { ...common, durableName: COMMAND_STATUS_CONSUMER, filterSubject: CommandSubjects.statusChanged },
      handler,
    );
  }

  async handle(subject: string, event: EventEnvelope<unknown>): Promise<void> {
    const webhookEvent = toWebhookEvent(subject, event);
    if (webhookEvent === null) return;
    if (
      !isUuid(event.tenantUuid) ||
      typeof event.eventId !== 'string' ||
      typeof event.occurredAt !== 'string'
    ) {
      this.logger.warn(`ignoring malformed event ${String(event.eventId)} on ${subject}`);
      return;
    }
    const { tenantUuid } = event;
    const [{ found }] = await runStatement(this.dataSource, hasLocationFilter, {
      tenantUuid,
      eventType: webhookEvent.type,
    });
    const locationUuid = found
      ? await this.locations.locationOf(tenantUuid, webhookEvent.controllerUuid)
      : null;
    const inserted = await this.dataSource.transaction(async (manager) => {
      const session = webhookEvent.session;
      if (session) {
        const key = {
          tenantUuid,
          controllerUuid: webhookEvent.controllerUuid,
          transactionId: session.transactionId,
        };
        if (session.ended) {
          await runStatement(manager, forgetSession, key);
        } else {
          const claimed = await runStatement(manager, claimSessionUpdate, {
            ...key,
            at: new Date(event.occurredAt),
            intervalMs: this.config.tuning.sessionUpdateIntervalMs,
          });
          if (claimed.length === 0) return [];
        }
      }
      return runStatement(manager, fanOutEvent, {
        tenantUuid,
        eventId: event.eventId,
        eventType: webhookEvent.type,
        orderingKey: webhookEvent.orderingKey,
        body: webhookBody(webhookEvent.type, event.occurredAt, webhookEvent.data),
        controllerUuid: webhookEvent.controllerUuid,
        locationUuid,
      });
    });
    if (inserted.length > 0) this.signal.wake();
  }
}
