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
 * Keeps the presence registry true, every third of OCPP_PRESENCE_TTL_MS: confirms this instance is alive (and, when
 * it was found dead meanwhile, e.g. because the process stood still, announces its sockets again), retries withdrawals
 * that failed, checks a slice of its own entries (each once per OCPP_PRESENCE_AUDIT_MS), then sweeps the entries of
 * instances that stopped confirming themselves. A killed instance publishes no disconnects; the sweep does it for it,
 * so connection_status does not stay "online" for charge points that never came back. Every instance sweeps; the
 * compare-and-delete picks one publisher per entry, and the event id (from the connection id) is the same one a
 * regular disconnect of that connection would carry, so the stream stores it once.
 */
@Injectable()
export class PresenceUpkeep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PresenceUpkeep.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Where the next round's slice of the audit begins, in the order of the connections registry. */
  private auditCursor = 0;

  constructor(
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    private readonly presence: ChargePointPresenceRegistry,
    private readonly connections: ChargePointConnectionsRegistry,
    private readonly lifecycle: ChargePointConnectionLifecycle,
    private readonly events: ChargePointEventPublisher,
  ) {}

  private get roundMs(): number {
    return Math.floor(this.config.presenceTtlMs / 3);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.upkeep().finally(() => (this.running = undefined));
    }, this.roundMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async upkeep(): Promise<void> {
    try {
      if (!(await this.presence.confirmAlive())) await this.rejoin();
      await this.presence.withdrawLeftovers();
      await this.audit();
      await this.sweep();
    } catch (error) {
      this.logger.warn(`presence upkeep failed, next round retries: ${describeError(error)}`);
    }
  }

  private async rejoin(): Promise<void> {
    this.logger.warn('this instance was found dead by another one; announcing its connections again');
    await this.presence.rejoin();
    for (const connection of this.connections.all()) {
      if (connection.isOpen) await this.lifecycle.recoverPresence(connection);
    }
  }

  /** This round's share of the open connections, each checked against its entry. */
  private async audit(): Promise<void> {
    const all = this.connections.all();
    if (all.length === 0) return;
    const share = Math.min(all.length, Math.ceil((all.length * this.roundMs) / this.config.presenceAuditMs));
    for (let checked = 0; checked < share; checked++) {
      const connection = all[(this.auditCursor + checked) % all.length];
      if (!connection.isOpen) continue;
      if ((await this.presence.holder(connection.controllerUuid)) === connection.connectionId) continue;
      await this.lifecycle.recoverPresence(connection);
    }
    this.auditCursor = (this.auditCursor + share) % all.length;
  }

  private async sweep(): Promise<void> {
    const dead = [];
    for (const instance of await this.presence.deadInstances()) {
      if (await this.presence.markLost(instance)) dead.push(instance);
    }
    if (dead.length === 0 && !this.presence.sweepOwnEarlierIncarnation) return;
    const deadIds = new Set(dead.map(({ instanceId }) => instanceId));
    for (const stale of await this.presence.entriesToSweep(deadIds)) {
      if (await this.presence.removeStale(stale)) await this.announceLost(stale);
    }
    for (const instance of dead) await this.presence.forget(instance);
  }

  private async announceLost({ presence }: StalePresence): Promise<void> {
    this.logger.warn(
      `${presence.ocppIdentity} (${presence.controllerUuid}) was held by ${presence.gatewayInstance}, which stopped confirming itself`,
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
