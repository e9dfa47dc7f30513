import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AssetsSubjects, ChargePointEventSubjects, type EventEnvelope, UUID_PATTERN } from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DispatchSignal } from './dispatch-signal.js';

/** Durable names cannot hold dots; NATS 2.9 allows one filter subject per consumer. */
export const CHARGE_POINT_CONNECTIONS_CONSUMER = 'command-service_charge-point-connections';
export const CONTROLLER_DELETIONS_CONSUMER = 'command-service_controller-deletions';

/**
 * What happens to charge points that matters for delivery: a connected charge point's waiting commands become due at
 * once (in creation order, by the queue's rule); a deleted controller's pending commands fail `target_deleted`.
 * Connected events come in batches (a reconnect storm connects every charge point at once), each woken by one
 * statement; the durable keeps its configuration (consumeBatches creates it as consume does), so an existing one
 * goes on where it was.
 */
@Injectable()
export class ChargePointLifecycleConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChargePointLifecycleConsumer.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly queue: DeliveryQueue,
    private readonly signal: DispatchSignal,
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consumeBatches(
      {
        durableName: CHARGE_POINT_CONNECTIONS_CONSUMER,
        filterSubject: ChargePointEventSubjects.connected,
        maxBatchSize: this.config.tuning.connectedEventsBatchSize,
      },
      (batch) => this.connected(batch.map(({ event }) => event)),
    );
    await this.bus.consume(
      { durableName: CONTROLLER_DELETIONS_CONSUMER, filterSubject: AssetsSubjects.controllerDeleted },
      (_subject, event) => this.controllerDeleted(event),
    );
  }

  /** Wakes the lanes of the charge points these events say connected; a malformed event is skipped. */
  async connected(events: readonly EventEnvelope<unknown>[]): Promise<void> {
    const controllerUuids = new Set<string>();
    for (const event of events) {
      const controllerUuid = this.controllerOf(event);
      if (controllerUuid) controllerUuids.add(controllerUuid);
    }
    // Only lanes with something waiting need a claim: in a reconnect storm every charge point connects, few have
    // commands.
    if (await this.queue.wakeLanes([...controllerUuids])) this.signal.notify();
  }

  async controllerDeleted(event: EventEnvelope<unknown>): Promise<void> {
    const controllerUuid = this.controllerOf(event);
    if (!controllerUuid || typeof event.tenantUuid !== 'string' || !UUID_PATTERN.test(event.tenantUuid))
      return;
    await this.queue.controllerDeleted(event.tenantUuid, controllerUuid);
  }

  private controllerOf(event: EventEnvelope<unknown>): string | undefined {
    const controllerUuid = (event.data as { controllerUuid?: unknown } | undefined)?.controllerUuid;
    if (typeof controllerUuid === 'string' && UUID_PATTERN.test(controllerUuid)) return controllerUuid;
    this.logger.warn(`ignoring malformed event ${String(event.eventId)}`);
    return undefined;
  }
}
