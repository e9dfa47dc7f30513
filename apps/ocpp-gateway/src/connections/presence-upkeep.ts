import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type ChargePointDisconnectedEvent, ChargePointEventSubjects } from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { ChargePointEventPublisher, eventIdFrom } from '../events/charge-point-event.publisher.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import { ChargePointConnectionLifecycle } from './charge-point-connection.lifecycle.js';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';
import { ChargePointPresenceRegistry, type StalePresence } from './charge-point-presence.registry.js';

/**
 * Keeps the presence registry true, every third of OCPP_PRESENCE_TTL_MS: refreshes this instance's entries (and
 * announces a connection again when its entry was lost, e.g. swept while this process stood still), then sweeps the
 * entries of instances that stopped refreshing theirs. A killed instance publishes no disconnects; the sweep does it
 * for it, so connection_status does not stay "online" for charge points that never came back. Every instance sweeps;
 * the compare-and-delete picks one publisher per entry, and the event id (from the connection id) is the same one a
 * regular disconnect of that connection would carry, so the stream stores it once.
 */
@Injectable()
export class PresenceUpkeep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PresenceUpkeep.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    private readonly presence: ChargePointPresenceRegistry,
    private readonly connections: ChargePointConnectionsRegistry,
    private readonly lifecycle: ChargePointConnectionLifecycle,
    private readonly events: ChargePointEventPublisher,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => {
        this.running ??= this.upkeep().finally(() => (this.running = undefined));
      },
      Math.floor(this.config.presenceTtlMs / 3),
    );
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async upkeep(): Promise<void> {
    try {
      for (const connection of this.connections.all()) {
        if ((await this.presence.refresh(connection)) || !connection.isOpen) continue;
        await this.lifecycle.recoverPresence(connection);
      }
      for (const stale of await this.presence.staleEntries()) {
        if (await this.presence.removeStale(stale)) await this.announceLost(stale);
      }
    } catch (error) {
      this.logger.warn(`presence upkeep failed, next round retries: ${describeError(error)}`);
    }
  }

  private async announceLost({ presence }: StalePresence): Promise<void> {
    this.logger.warn(
      `${presence.ocppIdentity} (${presence.controllerUuid}) was held by ${presence.gatewayInstance}, which stopped refreshing it`,
    );
    await this.events.publish<ChargePointDisconnectedEvent>(
      ChargePointEventSubjects.disconnected,
      {
        tenantUuid: presence.tenantUuid,
        ref: { controllerUuid: presence.controllerUuid, ocppIdentity: presence.ocppIdentity },
      },
      {
        connectionId: presence.connectionId,
        gatewayInstance: presence.gatewayInstance,
        disconnectedAt: new Date().toISOString(),
        reason: 'gateway_instance_lost',
      },
      { eventId: eventIdFrom(presence.connectionId, 'disconnected') },
    );
  }
}
