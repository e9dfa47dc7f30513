import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { describeError } from '@cpc/errors';
import { CommandSubjects, type EventEnvelope, isUuid } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import {
  type BatchOutcome,
  type DeliveredEvent,
  type EventOutcome,
  type EventPosition,
  JetStreamEventBus,
} from '@cpc/nats';
import { DataSource, type EntityManager } from 'typeorm';
import type { AckFloorName } from '../delivery/ack-floors.js';
import { DeliverySignal } from '../delivery/delivery-signal.js';
import { retryDelayMs } from '../delivery/retry-schedule.js';
import {
  claimSessionUpdate,
  fanOutEvents,
  type FannedOutEvent,
  forgetSession,
} from '../repositories/deliveries.repository.js';
import { parkEvent } from '../repositories/parked-events.repository.js';
import { SubscriptionIndex } from '../subscriptions/subscription-index.js';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';
import { CHARGE_POINT_EVENTS_CONSUMER, COMMAND_STATUS_CONSUMER } from './consumer-names.js';
import { ConnectorPlugs } from './connector-plugs.js';
import { ControllerLocations } from './controller-locations.js';
import { toWebhookEvent, type WebhookEvent, webhookBody } from './webhook-event-mapping.js';

/**
 * Turns platform events into delivery rows: one per matching subscription, written before the event is acknowledged
 * (a crash in between redelivers it, and the unique (event, subscription) keeps it at one row). Each row keeps its
 * event's stream sequence: the order of one controller's or one command's events, whichever replica wrote them (the
 * delivery worker waits for the consumer's ack floor, see claimDueDeliveries), so command events, whose order does
 * not matter here, are written a batch at a time: one statement and one commit for the rows of many events. Charge
 * point events go one at a time: the once-a-minute limit of session updates and its reset at the session's end depend
 * on their order.
 *
 * An event that no enabled subscription can want (SubscriptionIndex) is acknowledged without a statement.
 *
 * An event whose fan-out fails eventAttemptsBeforeParking times (one that cannot be stored, or a dependency that stays
 * away) is parked: set aside in webhooks.parked_events and acknowledged, so the ack floor, and with it every other
 * subject's deliveries, moves on. ParkedEventsRetrier tries it again; meanwhile the later rows of its ordering key wait.
 */
@Injectable()
export class WebhookEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookEventsConsumer.name);
  private markStarted!: () => void;
  /** Resolves once both durable consumers exist (their ack floors can be read). */
  readonly started = new Promise<void>((resolve) => (this.markStarted = resolve));

  constructor(
    private readonly eventBus: JetStreamEventBus,
    private readonly dataSource: DataSource,
    private readonly locations: ControllerLocations,
    private readonly plugs: ConnectorPlugs,
    private readonly signal: DeliverySignal,
    private readonly subscriptions: SubscriptionIndex,
    @Inject(WEBHOOK_SERVICE_CONFIG) private readonly config: WebhookServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { tuning } = this.config;
    const common = {
      retryDelayMs: tuning.eventRetryDelayMs,
      maxAckPending: tuning.eventMaxAckPending,
      pullBatchSize: tuning.eventPullBatchSize,
    };
    await this.eventBus.consume(
      { ...common, durableName: CHARGE_POINT_EVENTS_CONSUMER, filterSubject: 'events.charge-point.>' },
      async (subject, event, position) =>
        (await this.handleOrPark(subject, event, position))
          ? this.rowsWritten('chargePointAckFloor', position.streamSequence)
          : undefined,
    );
    await this.eventBus.consumeBatches(
      {
        ...common,
        durableName: COMMAND_STATUS_CONSUMER,
        filterSubject: CommandSubjects.statusChanged,
        maxBatchSize: tuning.commandEventBatchSize,
      },
      (batch) => this.handleBatch(batch),
    );
    this.markStarted();
  }

  /**
   * Writes the rows of a batch of events (command status events: no plug look-up, no session throttle) in one
   * statement and one commit. When that fails, each event goes on its own as handleOrPark takes it, so one that cannot
   * be stored is parked after its last allowed attempt instead of holding the batch back forever (the others' rows,
   * written again, are there once).
   */
  async handleBatch(batch: readonly DeliveredEvent[]): Promise<BatchOutcome | undefined> {
    const events: FannedOutEvent[] = [];
    let wroteRows = false;
    for (const { subject, event, position } of batch) {
      const webhookEvent = this.wanted(subject, event);
      if (!webhookEvent || webhookEvent.plugOf || webhookEvent.session) {
        // Not a command event after all: the one-by-one path knows what it needs.
        if (webhookEvent && (await this.handleOrPark(subject, event, position))) wroteRows = true;
        continue;
      }
      events.push({
        tenant_uuid: event.tenantUuid,
        event_id: event.eventId,
        event_type: webhookEvent.type,
        ordering_key: webhookEvent.orderingKey,
        stream_seq: position.streamSequence,
        body: webhookBody(webhookEvent.type, event.occurredAt, webhookEvent.data),
        controller_uuid: webhookEvent.controllerUuid,
        location_uuid: null,
      });
    }
    if (events.length > 0) {
      try {
        if ((await this.fanOutMany(events, this.dataSource)) > 0) wroteRows = true;
      } catch (error) {
        this.logger.warn(
          `fanning out ${events.length} events at once failed, one by one now: ${describeError(error)}`,
        );
        for (const { subject, event, position } of batch) {
          if (await this.handleOrPark(subject, event, position)) wroteRows = true;
        }
      }
    }
    const lastSequence = batch.at(-1)!.position.streamSequence;
    return wroteRows ? { redeliver: NONE, ...this.rowsWritten('commandAckFloor', lastSequence) } : undefined;
  }

  /**
   * Wakes the delivery loop for events whose rows were written, whose rows may go once their acknowledgement moved the
   * ack floor. A loop that waits claims only when woken: the acknowledgement is confirmed and the floors read at once.
   * A busy loop reads them every ackFloorMaxAgeMs anyway; it is told shortly after the acknowledgement went out,
   * which spares the confirmations' requests where the platform is short of CPU (the timer runs after the handler's
   * return sent the acknowledgement).
   */
  private rowsWritten(floor: AckFloorName, streamSequence: number): EventOutcome {
    const acknowledged = () => this.signal.rowsAcknowledged(floor, streamSequence);
    if (this.signal.loopWaiting) return { afterAcknowledged: acknowledged };
    setTimeout(acknowledged, this.config.tuning.wakeAfterFanOutMs);
    return {};
  }

  /**
   * Writes the rows of the unfiltered and controller-filtered subscriptions first, then, for the events a
   * location-filtered subscription could want, again with their controllers' locations (looked up only then).
   */
  private async fanOutMany(events: FannedOutEvent[], runner: DataSource | EntityManager): Promise<number> {
    const [first] = await runStatement(runner, fanOutEvents, { events: JSON.stringify(events) });
    if (first.location_filtered.length === 0) return first.inserted;
    const filtered = new Set(first.location_filtered.map(Number));
    const located: FannedOutEvent[] = [];
    for (const event of events) {
      if (!filtered.has(event.stream_seq)) continue;
      const locationUuid = await this.locations.locationOf(event.tenant_uuid, event.controller_uuid);
      if (locationUuid !== null) located.push({ ...event, location_uuid: locationUuid });
    }
    if (located.length === 0) return first.inserted;
    const [second] = await runStatement(runner, fanOutEvents, { events: JSON.stringify(located) });
    return first.inserted + second.inserted;
  }

  /**
   * Handles a delivered event; after its last allowed attempt fails, parks it instead (then it is acknowledged).
   * Answers whether it wrote rows.
   */
  private async handleOrPark(
    subject: string,
    event: EventEnvelope<unknown>,
    position: EventPosition,
  ): Promise<boolean> {
    try {
      return (await this.handle(subject, event, position.streamSequence)) > 0;
    } catch (error) {
      if (position.deliveryCount < this.config.tuning.eventAttemptsBeforeParking) throw error;
      const reason = describeError(error);
      // When parking fails too (the database is away), the event is redelivered and parked later.
      await runStatement(this.dataSource, parkEvent, {
        streamSeq: position.streamSequence,
        subject,
        envelope: JSON.stringify(event),
        orderingKey: orderingKeyOf(subject, event),
        attempts: position.deliveryCount,
        error: reason,
        nextAttemptAt: new Date(Date.now() + retryDelayMs(1, this.config.tuning)),
      });
      this.logger.error(
        `parked event ${String(event.eventId)} on ${subject} (stream sequence ${position.streamSequence}) after ` +
          `${position.deliveryCount} failed attempts: ${reason}`,
      );
      return false;
    }
  }

  /**
   * The webhook event a platform event stands for, when an enabled subscription of its tenant could want it; null for
   * one that webhooks have nothing for, that is malformed, or that no subscription wants (SubscriptionIndex).
   */
  private wanted(
    subject: string,
    event: EventEnvelope<unknown>,
  ): (WebhookEvent & { tenantUuid: string }) | null {
    const webhookEvent = toWebhookEvent(subject, event);
    if (webhookEvent === null) return null;
    if (
      !isUuid(event.tenantUuid) ||
      typeof event.eventId !== 'string' ||
      typeof event.occurredAt !== 'string'
    ) {
      this.logger.warn(`ignoring malformed event ${String(event.eventId)} on ${subject}`);
      return null;
    }
    // No enabled subscription can want it: no look-up, no statement (the session throttle's neither).
    if (!this.subscriptions.couldMatch(event.tenantUuid, webhookEvent.type, webhookEvent.controllerUuid))
      return null;
    return { ...webhookEvent, tenantUuid: event.tenantUuid };
  }

  /** Writes an event's delivery rows (idempotent; `streamSeq` is its place in the stream); answers how many. */
  async handle(subject: string, event: EventEnvelope<unknown>, streamSeq: number): Promise<number> {
    const webhookEvent = this.wanted(subject, event);
    if (webhookEvent === null) return 0;
    const { tenantUuid } = webhookEvent;
    if (webhookEvent.plugOf) {
      webhookEvent.data.plug_uuid = await this.plugs.plugOf(
        tenantUuid,
        webhookEvent.controllerUuid,
        webhookEvent.plugOf,
      );
    }
    const row: FannedOutEvent = {
      tenant_uuid: tenantUuid,
      event_id: event.eventId,
      event_type: webhookEvent.type,
      ordering_key: webhookEvent.orderingKey,
      stream_seq: streamSeq,
      body: webhookBody(webhookEvent.type, event.occurredAt, webhookEvent.data),
      controller_uuid: webhookEvent.controllerUuid,
      location_uuid: null,
    };
    const session = webhookEvent.session;
    // Most events: their statements on their own. Session events: in one transaction with their once-a-minute mark.
    const inserted = session
      ? await this.dataSource.transaction(async (manager) => {
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
            if (claimed.length === 0) return 0;
          }
          return this.fanOutMany([row], manager);
        })
      : await this.fanOutMany([row], this.dataSource);
    return inserted;
  }
}

const NONE: ReadonlySet<number> = new Set();

/** The ordering key of an event, or null when it has none (or is too malformed to say). */
function orderingKeyOf(subject: string, event: EventEnvelope<unknown>): string | null {
  try {
    return toWebhookEvent(subject, event)?.orderingKey ?? null;
  } catch {
    return null;
  }
}
