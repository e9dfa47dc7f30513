import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AssetsSubjects, type ControllerDeletedEvent } from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';

/**
 * Closes the socket of a controller that was deleted. Every instance must see every deletion (only the one holding
 * the socket acts), from the moment it starts (an instance that starts holds no sockets yet; refused reconnects are
 * assets-service's job): JetStreamEventBus.followOnThisInstance.
 */
@Injectable()
export class ControllerDeletedListener implements OnModuleInit {
  private readonly logger = new Logger(ControllerDeletedListener.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly connections: ChargePointConnectionsRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.followOnThisInstance(AssetsSubjects.controllerDeleted, (event) =>
      this.closeSocketOf(event as ControllerDeletedEvent),
    );
  }

  private closeSocketOf(event: ControllerDeletedEvent): void {
    const connection = this.connections.get(event.data.controllerUuid);
    if (!connection) return;
    this.logger.log(`controller ${event.data.controllerUuid} was deleted; closing its socket`);
    void connection.close('controller_deleted');
  }
}
