import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  AssetsSubjects,
  type ControllerCredentialsChangedEvent,
  type ControllerDeletedEvent,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';
import {
  ALL_CREDENTIALS_VERSIONS,
  ControllerCredentialRevocations,
} from './controller-credential-revocations.js';

/**
 * Closes the socket of a controller that was deleted or whose password, security profile or identity changed, and
 * remembers the change for a handshake still in flight (ControllerCredentialRevocations). Every instance must see
 * every change (only the one holding the socket closes it), from the moment it starts (an instance that starts holds
 * no sockets yet; refusing the old credentials is assets-service's job): JetStreamEventBus.followOnThisInstance.
 * Repeated events change nothing: the revocation keeps the highest version, and closing a closed socket is a no-op.
 */
@Injectable()
export class ControllerChangesListener implements OnModuleInit {
  private readonly logger = new Logger(ControllerChangesListener.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly connections: ChargePointConnectionsRegistry,
    private readonly revocations: ControllerCredentialRevocations,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.followOnThisInstance(AssetsSubjects.controllerDeleted, (event) =>
      this.deleted(event as ControllerDeletedEvent),
    );
    await this.bus.followOnThisInstance(AssetsSubjects.controllerCredentialsChanged, (event) =>
      this.credentialsChanged(event as ControllerCredentialsChangedEvent),
    );
  }

  private deleted(event: ControllerDeletedEvent): void {
    const { controllerUuid } = event.data;
    this.revocations.revoke(controllerUuid, ALL_CREDENTIALS_VERSIONS, 'controller_deleted');
    const connection = this.connections.get(controllerUuid);
    if (!connection) return;
    this.logger.log(`controller ${controllerUuid} was deleted; closing its socket`);
    void connection.close('controller_deleted');
  }

  private credentialsChanged(event: ControllerCredentialsChangedEvent): void {
    const { controllerUuid, credentialsVersion, changed } = event.data;
    if (typeof controllerUuid !== 'string' || !Number.isSafeInteger(credentialsVersion)) {
      throw new Error('a credentials-changed event without controllerUuid or credentialsVersion');
    }
    this.revocations.revoke(controllerUuid, credentialsVersion, 'credentials_changed');
    const connection = this.connections.get(controllerUuid);
    if (!connection || connection.chargePoint.credentialsVersion >= credentialsVersion) return;
    this.logger.log(
      `the ${Array.isArray(changed) ? changed.join(', ') : 'credentials'} of controller ${controllerUuid} changed; closing the socket that authenticated with the old credentials`,
    );
    void connection.close('credentials_changed');
  }
}
