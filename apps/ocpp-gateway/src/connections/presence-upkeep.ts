import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type ChargePointDisconnectedEvent, ChargePointEventSubjects, EVENT_STREAM } from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { ChargePointEventPublisher } from '../events/charge-point-event.publisher.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import { ChargePointConnectionLifecycle } from './charge-point-connection.lifecycle.js';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';
import {
  ChargePointPresenceRegistry,
  disconnectedEventId,
  type StalePresence,
} from './charge-point-presence.registry.js';

/**
 * How long after its delete a sweep's disconnect may still count on JetStream's duplicate window, with a margin for
 * the publish itself: beyond, the entry is read again first.
 */
const STALLED_SWEEP_MS = (EVENT_STREAM.duplicateWindowSeconds * 1000) / 4;

/**
 * Keeps the presence registry true, every third of OCPP_PRESENCE_TTL_MS: confirms this instance is alive (and, when
 * it was found dead meanwhile, e.g. because the process stood still, writes its entries again and announces again the
 * connections whose entries were swept), retries withdrawals that failed, checks a slice of its own entries (each once
 * per OCPP_PRESENCE_AUDIT_MS), then sweeps the entries of instances that stopped confirming themselves. A killed
 * instance publishes no disconnects; the sweep does it for it, so connection_status does not stay "online" for charge
 * points that never came back. Every instance sweeps; the compare-and-delete picks one publisher per entry, and the
 * event id (from the connection id and the entry's revision) is the same one a regular disconnect of that connection
 * would carry, and the one its rejoining instance repeats, so the stream stores it once.
 */
@Injectable()
export class PresenceUpkeep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PresenceUpkeep.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Where the next round's slice of the audit begins, in the order of the connections registry. */
  private auditCursor = 0;
  /**
   * Swept entries whose disconnect could not be published (NATS away): the entry is gone, so no other instance would
   * announce it, and the controller would stay online. Published again each round, same event id, until it goes out.
   */
  private unannounced: { stale: StalePresence; removing: number }[] = [];

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
      await this.recoverInDoubt();
      await this.presence.withdrawLeftovers();
      await this.audit();
      await this.announceLostAgain();
      await this.sweep();
    } catch (error) {
      this.logger.warn(`presence upkeep failed, next round retries: ${describeError(error)}`);
    }
  }

  private async rejoin(): Promise<void> {
    this.logger.warn('this instance was found dead by another one; writing its entries again');
    for (const connection of this.connections.all()) connection.presenceInDoubt = true;
    await this.presence.rejoin();
  }

  /** Checks the entries of the connections this instance held when it was found dead (the rest, after a failure). */
  private async recoverInDoubt(): Promise<void> {
    for (const connection of this.connections.all()) {
      if (connection.presenceInDoubt && connection.isOpen) await this.lifecycle.recoverPresence(connection);
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
      const removing = performance.now();
      if (!(await this.presence.removeStale(stale))) continue;
      await this.announceLost(stale, removing).catch((error: unknown) => {
        this.unannounced.push({ stale, removing });
        this.logger.warn(
          `the disconnect of swept ${stale.presence.controllerUuid} was not published, next round retries: ` +
            describeError(error),
        );
      });
    }
    for (const instance of dead) await this.presence.forget(instance);
  }

  /** The disconnects of swept entries that earlier rounds could not publish; those failing again wait for the next. */
  private async announceLostAgain(): Promise<void> {
    const waiting = this.unannounced;
    this.unannounced = [];
    for (const [index, { stale, removing }] of waiting.entries()) {
      try {
        await this.announceLost(stale, removing);
      } catch (error) {
        this.unannounced.push(...waiting.slice(index));
        throw error;
      }
    }
  }

  /**
   * Publishes the disconnect of a swept entry. Its instance, rejoining, repeats it (same event id) before it announces
   * the connection again, and JetStream drops the later of the two, but only within its duplicate window: after a
   * long stall since the delete (this process stood still), a connection announced again meanwhile is left alone.
   */
  private async announceLost({ presence, revision }: StalePresence, removing: number): Promise<void> {
    if (
      performance.now() - removing > STALLED_SWEEP_MS &&
      (await this.presence.holder(presence.controllerUuid)) === presence.connectionId
    ) {
      this.logger.warn(
        `${presence.controllerUuid} was announced again by its instance; its sweep announces nothing`,
      );
      return;
    }
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
      { eventId: disconnectedEventId(presence.connectionId, revision) },
    );
  }
}
