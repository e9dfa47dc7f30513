import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { type ConsumerMessages, DeliverPolicy, jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { AssetsSubjects, type ControllerDeletedEvent, EVENT_STREAM } from '@cpc/contracts';
import { JetStreamEventBus, NATS_CONNECTION } from '@cpc/nats';
import { describeError } from '../describe-error.js';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';

/**
 * Closes the socket of a controller that was deleted. Every instance must see every deletion (only the one holding
 * the socket acts), so a durable consumer — which load-balances between its subscribers and outlives instances —
 * is the wrong tool. This is an ordered consumer: ephemeral, private to the instance, starting at "new" events
 * (an instance that starts holds no sockets yet; refused reconnects are assets-service's job). Unlike a plain core
 * subscription on the subject, it resumes from its last stream sequence after a NATS reconnect, so a deletion
 * published during a blip is still applied.
 */
@Injectable()
export class ControllerDeletedListener implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(ControllerDeletedListener.name);
  private messages: ConsumerMessages | undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly bus: JetStreamEventBus,
    private readonly connections: ChargePointConnectionsRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.ensureStream();
    const consumer = await jetstream(this.nats).consumers.get(EVENT_STREAM.name, {
      filter_subjects: AssetsSubjects.controllerDeleted,
      deliver_policy: DeliverPolicy.New,
    });
    const messages = await consumer.consume();
    this.messages = messages;
    void (async () => {
      for await (const message of messages) {
        try {
          this.closeSocketOf(message.json<ControllerDeletedEvent>());
        } catch (error) {
          this.logger.warn(`ignoring a malformed controller-deleted event: ${describeError(error)}`);
        }
      }
    })();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.messages?.close();
  }

  private closeSocketOf(event: ControllerDeletedEvent): void {
    const connection = this.connections.get(event.data.controllerUuid);
    if (!connection) return;
    this.logger.log(`controller ${event.data.controllerUuid} was deleted; closing its socket`);
    void connection.close('controller_deleted');
  }
}
