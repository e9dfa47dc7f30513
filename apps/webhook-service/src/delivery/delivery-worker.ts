import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { runStatement } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  disableSubscription,
  failPendingOfDisabled,
  recordGone,
  releaseClaims,
} from '../repositories/deliveries.repository.js';
import { SigningKeys } from '../signing/signing-keys.js';
import { signWebhook } from '../signing/webhook-signature.js';
import { SubscriptionIndex } from '../subscriptions/subscription-index.js';
import { CHARGE_POINT_EVENTS_CONSUMER, COMMAND_STATUS_CONSUMER } from '../events/consumer-names.js';
import { WebhookEventsConsumer } from '../events/webhook-events.consumer.js';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';
import { AckFloors } from './ack-floors.js';
import { ClaimedDeliveries } from './claimed-deliveries.js';
import { DeliveryOutcomes } from './delivery-outcomes.js';
import { DeliverySignal } from './delivery-signal.js';
import { retryDelayMs } from './retry-schedule.js';
import type { AttemptResult } from './webhook-sender.js';
import { WebhookSender } from './webhook-sender.js';

const HTTP_GONE = 410;

/** The `webhook-id` of a delivery: the same on every attempt. */
export function webhookIdOf(deliveryId: string): string {
  return `msg_${deliveryId}`;
}

/**
 * Sends due deliveries: claims the heads of the (subscription, subject) queues, at most maxRequestsInFlight requests
 * at once and maxRequestsInFlightPerSubscription per subscription, so a slow or failing receiver holds only its own
 * share. Claims take up to maxClaimedWaitingPerSubscription rows more than a subscription's free requests; those wait
 * here (ClaimedDeliveries) and go out the moment one of its requests is answered. 2xx = delivered; 410 = the
 * subscription is disabled; anything else (a refused target, a timeout) is retried with exponential backoff and
 * jitter, and a subscription failing for failingDisableAfterMs is disabled with the reason.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly inFlight = new Set<Promise<void>>();
  /** Requests to each subscription's receiver not answered yet. */
  private readonly inFlightPerSubscription = new Map<string, number>();
  /**
   * Subscriptions whose last request here got no HTTP answer (it timed out, the connection failed, or the target was
   * refused): one request at a time goes to them until one is answered, instead of one in every slot, each holding a
   * connection until it times out too (a receiver that stopped answering got a new request for each that timed out).
   */
  private readonly unanswering = new Set<string>();
  private readonly waiting: ClaimedDeliveries<ClaimedDelivery>;
  private running = false;
  private readonly ackFloors: AckFloors;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sender: WebhookSender,
    private readonly outcomes: DeliveryOutcomes,
    private readonly signingKeys: SigningKeys,
    private readonly signal: DeliverySignal,
    private readonly eventBus: JetStreamEventBus,
    private readonly consumers: WebhookEventsConsumer,
    private readonly subscriptions: SubscriptionIndex,
    @Inject(WEBHOOK_SERVICE_CONFIG) private readonly config: WebhookServiceConfig,
  ) {
    // Half the lease: a row sent after that could see its lease end during the attempt.
    this.waiting = new ClaimedDeliveries(config.tuning.claimLeaseMs / 2);
    // Its waiting rows are not sent any more: failed (disabled by the platform), gone (deleted), or due again for
    // when it is enabled again (disabled through the API).
    subscriptions.onNoLongerEnabled((subscriptionUuid) => {
      this.unanswering.delete(subscriptionUuid);
      void this.release(this.waiting.dropSubscription(subscriptionUuid));
    });
    this.ackFloors = new AckFloors({
      read: async () => {
        const [commandAckFloor, chargePointAckFloor] = await Promise.all([
          this.eventBus.ackFloor(COMMAND_STATUS_CONSUMER),
          this.eventBus.ackFloor(CHARGE_POINT_EVENTS_CONSUMER),
        ]);
        return { commandAckFloor, chargePointAckFloor };
      },
      maxAgeMs: config.tuning.ackFloorMaxAgeMs,
      rereads: config.tuning.ackFloorRereads,
      rereadDelayMs: config.tuning.ackFloorRereadDelayMs,
      onAdvance: () => this.signal.wake(),
      onFailing: (error) =>
        this.logger.warn(
          `cannot read the event consumers' ack floors, claiming with the last: ${describeError(error)}`,
        ),
      onRecovered: () => this.logger.log("the event consumers' ack floors are read again"),
    });
    signal.onRowsAcknowledged((floor, streamSequence) => this.ackFloors.readUntil(floor, streamSequence));
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.signal.wake();
    this.ackFloors.close();
    await this.loop;
    await this.release(this.waiting.drain());
    await Promise.allSettled([...this.inFlight]);
    this.sender.close();
  }

  private async run(): Promise<void> {
    const { tuning } = this.config;
    await this.consumers.started;
    while (this.running) {
      const free =
        tuning.maxRequestsInFlight + tuning.maxClaimedWaiting - this.inFlight.size - this.waiting.size;
      if (free <= 0) {
        await Promise.race(this.inFlight);
        continue;
      }
      if (!this.subscriptions.anyEnabled) {
        // A claim serves enabled subscriptions only: a platform without any runs no statement (a ping or a fan-out
        // for a subscription enabled meanwhile wakes it, as the index has it by then).
        await this.signal.wait(tuning.idlePollIntervalMs);
        continue;
      }
      let claimed: ClaimedDelivery[];
      try {
        claimed = await runStatement(this.dataSource, claimDueDeliveries, {
          ...(await this.ackFloors.current()),
          limit: Math.min(free, tuning.claimBatchSize),
          leaseMs: tuning.claimLeaseMs,
          perSubscriptionLimit:
            tuning.maxRequestsInFlightPerSubscription + tuning.maxClaimedWaitingPerSubscription,
          probeOnlyAfterMs: tuning.failingSubscriptionProbeAfterMs,
          ...this.heldPerSubscription(),
        });
      } catch (error) {
        this.logger.warn(`claiming deliveries failed, trying again: ${describeError(error)}`);
        claimed = [];
      }
      for (const delivery of claimed) this.waiting.add(delivery);
      this.startWaiting();
      if (claimed.length === 0 && this.running) await this.signal.wait(tuning.idlePollIntervalMs);
    }
  }

  /**
   * Rows each subscription holds here, requests in flight and claimed rows waiting, as the claim counts them. An
   * unanswering subscription that holds any counts as full: its one request at a time needs no more rows.
   */
  private heldPerSubscription(): { inFlightSubscriptions: string[]; inFlightCounts: number[] } {
    const { maxRequestsInFlightPerSubscription, maxClaimedWaitingPerSubscription } = this.config.tuning;
    const held = new Map(this.inFlightPerSubscription);
    for (const subscription of this.waiting.subscriptions()) {
      held.set(subscription, (held.get(subscription) ?? 0) + this.waiting.waitingFor(subscription));
    }
    for (const subscription of this.unanswering) {
      if (held.has(subscription))
        held.set(subscription, maxRequestsInFlightPerSubscription + maxClaimedWaitingPerSubscription);
    }
    return { inFlightSubscriptions: [...held.keys()], inFlightCounts: [...held.values()] };
  }

  /** Sends waiting claimed rows while their subscriptions' and this replica's requests are below their caps. */
  private startWaiting(): void {
    const { maxRequestsInFlight, maxRequestsInFlightPerSubscription } = this.config.tuning;
    if (!this.running) return; // shutting down: what waits goes back to the database
    const expired: ClaimedDelivery[] = [];
    const mayStart = (subscription: string) =>
      (this.inFlightPerSubscription.get(subscription) ?? 0) <
      (this.unanswering.has(subscription) ? 1 : maxRequestsInFlightPerSubscription);
    while (this.inFlight.size < maxRequestsInFlight) {
      const next = this.waiting.next(mayStart, expired);
      if (!next) break;
      this.start(next);
    }
    if (expired.length > 0) void this.release(expired);
  }

  /** Gives claimed rows back unsent: due again at once, here or on another replica. */
  private async release(deliveries: ClaimedDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    try {
      await runStatement(this.dataSource, releaseClaims, {
        ids: deliveries.map((delivery) => delivery.id),
        attempts: deliveries.map((delivery) => delivery.attempts),
      });
    } catch (error) {
      // They come back when their lease ends.
      this.logger.warn(`giving back ${deliveries.length} claimed deliveries failed: ${describeError(error)}`);
    }
  }

  /**
   * Sends one delivery and records its outcome; its request counts against its subscription's cap until the receiver
   * answered (or the attempt failed), not while the outcome is written, so the cap holds requests to the receiver.
   */
  private start(delivery: ClaimedDelivery): void {
    const subscription = delivery.subscription_uuid;
    this.inFlightPerSubscription.set(subscription, (this.inFlightPerSubscription.get(subscription) ?? 0) + 1);
    let answered = false;
    const releaseReceiverSlot = () => {
      if (answered) return;
      answered = true;
      const left = (this.inFlightPerSubscription.get(subscription) ?? 1) - 1;
      if (left > 0) this.inFlightPerSubscription.set(subscription, left);
      else this.inFlightPerSubscription.delete(subscription);
      this.startWaiting();
    };
    const attempt = this.attempt(delivery, releaseReceiverSlot)
      .catch((error: unknown) => {
        // The outcome could not be recorded: the row comes back when its lease ends (same webhook-id).
        this.logger.warn(`delivery ${delivery.id}: recording the attempt failed: ${describeError(error)}`);
      })
      .finally(() => {
        this.inFlight.delete(attempt);
        releaseReceiverSlot();
        this.startWaiting();
        // The next event of the same queue may be due now: the next claim round takes it (a claim of its own per
        // delivery cost PostgreSQL more, planning included, than the rounds, which take many at once).
        this.signal.wake();
      });
    this.inFlight.add(attempt);
  }

  /**
   * One attempt and its outcome recorded (delivered and retried ones together with other deliveries' outcomes, see
   * DeliveryOutcomes).
   */
  private async attempt(delivery: ClaimedDelivery, answered: () => void): Promise<void> {
    const result = await this.send(delivery);
    // Before its slot is free: a slot freed by a request that got no answer starts no other request but a probe.
    if (result.statusCode === null) this.unanswering.add(delivery.subscription_uuid);
    else this.unanswering.delete(delivery.subscription_uuid);
    answered();
    if (result.statusCode !== null && result.error === null) {
      await this.outcomes.delivered(delivery.id, delivery.attempts, result.statusCode);
      return;
    }
    const error = result.error ?? 'failed';
    if (result.statusCode === HTTP_GONE) {
      await this.dataSource.transaction(async (manager) => {
        await this.disable(manager, delivery.subscription_uuid, 'the receiver answered 410 Gone', null);
        await runStatement(manager, recordGone, { id: delivery.id, statusCode: HTTP_GONE, error });
      });
      await this.forgetDisabled(delivery.subscription_uuid);
      return;
    }
    const nextAttemptAt = new Date(Date.now() + retryDelayMs(delivery.attempts, this.config.tuning));
    const failingSince = await this.outcomes.failed(
      delivery.id,
      delivery.attempts,
      result.statusCode,
      error,
      nextAttemptAt,
    );
    const { failingDisableAfterMs } = this.config.tuning;
    if (failingSince && Date.now() - failingSince.getTime() >= failingDisableAfterMs) {
      // The statement checks the streak again: a success or a re-enable since this outcome wins.
      const reason = `deliveries failing since ${failingSince.toISOString()}; last: ${error}`;
      const disabled = await this.dataSource.transaction((manager) =>
        this.disable(manager, delivery.subscription_uuid, reason, failingDisableAfterMs),
      );
      if (disabled) await this.forgetDisabled(delivery.subscription_uuid);
    }
  }

  /**
   * Disables the subscription (with `failingForMs`, only if its deliveries still fail that long) and fails its pending
   * deliveries, those of fan-outs that committed while the disable waited for them too; answers whether it did.
   */
  private async disable(
    manager: EntityManager,
    subscriptionUuid: string,
    reason: string,
    failingForMs: number | null,
  ): Promise<boolean> {
    const [{ disabled }] = await runStatement(manager, disableSubscription, {
      subscriptionUuid,
      reason,
      failingForMs,
    });
    if (disabled) await runStatement(manager, failPendingOfDisabled, { subscriptionUuid, reason });
    return disabled;
  }

  /** Its waiting rows are failed now: dropped at once (the index tells of it too, but only if its read succeeds). */
  private async forgetDisabled(subscriptionUuid: string): Promise<void> {
    this.waiting.dropSubscription(subscriptionUuid);
    await this.subscriptions.changed(subscriptionUuid);
  }

  private async send(delivery: ClaimedDelivery): Promise<AttemptResult> {
    if (!this.config.allowHttpTargets && !delivery.url.startsWith('https://')) {
      return { statusCode: null, error: 'refused: only https receivers are allowed' };
    }
    const keys = [this.signingKeys.keyOf(delivery.secret_ciphertext, delivery.subscription_uuid)];
    if (delivery.previous_secret_ciphertext !== null) {
      keys.push(this.signingKeys.keyOf(delivery.previous_secret_ciphertext, delivery.subscription_uuid));
    }
    const headers = signWebhook(keys, webhookIdOf(delivery.id), Math.floor(Date.now() / 1000), delivery.body);
    try {
      return await this.sender.send(delivery.url, { ...headers }, delivery.body);
    } catch (error) {
      return { statusCode: null, error: describeError(error) };
    }
  }
}
