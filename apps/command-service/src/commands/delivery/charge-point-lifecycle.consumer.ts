import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AssetsSubjects, ChargePointEventSubjects, type EventEnvelope, UUID_PATTERN } from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { DeliveryQueue } from './delivery-queue.js';
import { DispatchSignal } from './dispatch-signal.js';

/** Durable names cannot hold dots; NATS 2.9 allows one filter subject per consumer. */
export const CHARGE_POINT_CONNECTIONS_CONSUMER = 'command-service_charge-point-connections';
export const CONTROLLER_DELETIONS_CONSUMER = 'command-service_controller-deletions';

/**
 * What happens to charge points that matters for delivery: a connected charge point's waiting commands become due at
 * once (in creation order, by the queue's rule); a deleted controller's pending commands fail `target_deleted`.
 */
@Injectable()
export class ChargePointLifecycleConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChargePointLifecycleConsumer.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly queue: DeliveryQueue,
    private readonly signal: DispatchSignal,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consume(
      { durableName: CHARGE_POINT_CONNECTIONS_CONSUMER, filterSubject: ChargePointEventSubjects.connected },
      (_subject, event) => this.connected(event),
    );
    await this.bus.consume(
      { durableName: CONTROLLER_DELETIONS_CONSUMER, filterSubject: AssetsSubjects.controllerDeleted },
      (_subject, event) => this.controllerDeleted(event),
    );
  }

  async connected(event: EventEnvelope<unknown>): Promise<void> {
    const controllerUuid = this.controllerOf(event);
    if (!controllerUuid) return;
    // A lane with nothing waiting needs no claim: in a reconnect storm every charge point connects, few have commands.
    if (await this.queue.wakeLane(controllerUuid)) this.signal.notify();
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
