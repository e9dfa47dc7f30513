import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { CHARGE_POINT_PRESENCE_BUCKET, type ChargePointPresence } from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';
import { describeError } from '../describe-error.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { ChargePointConnection } from './charge-point-connection.js';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';

/**
 * Writes this instance's part of the presence registry (NATS KV, see ChargePointPresence). The bucket's TTL is the
 * safety net: entries are refreshed at a third of it, so an instance that dies without cleaning up leaves entries
 * that vanish within one TTL, while a live instance's entries never expire. Presence is advisory (the call subject
 * is what routes), so a failed write is logged and retried by the next refresh, never fatal to a connection.
 */
@Injectable()
export class ChargePointPresenceRegistry implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChargePointPresenceRegistry.name);
  private bucket: KV | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    private readonly connections: ChargePointConnectionsRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    this.bucket = await new Kvm(this.nats).create(CHARGE_POINT_PRESENCE_BUCKET, {
      ttl: this.config.presenceTtlMs,
      history: 1,
    });
    this.refreshTimer = setInterval(() => void this.refreshAll(), Math.floor(this.config.presenceTtlMs / 3));
    this.refreshTimer.unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.refreshTimer);
  }

  async announce(connection: ChargePointConnection): Promise<void> {
    try {
      await this.requireBucket().put(connection.controllerUuid, JSON.stringify(this.entryFor(connection)));
    } catch (error) {
      this.logger.warn(`presence of ${connection.controllerUuid} not written: ${describeError(error)}`);
    }
  }

  /** Deletes the entry only while it still names this connection: a newer socket elsewhere may own it already. */
  async withdraw(connection: ChargePointConnection): Promise<void> {
    try {
      const bucket = this.requireBucket();
      const entry = await bucket.get(connection.controllerUuid);
      if (!entry || entry.operation !== 'PUT') return;
      const presence = entry.json<ChargePointPresence>();
      if (presence.connectionId !== connection.connectionId) return;
      await bucket.delete(connection.controllerUuid, { previousSeq: entry.revision });
    } catch (error) {
      // A concurrent write won the compare-and-delete, or NATS is away: the TTL cleans up either way.
      this.logger.debug(`presence of ${connection.controllerUuid} not withdrawn: ${describeError(error)}`);
    }
  }

  private async refreshAll(): Promise<void> {
    for (const connection of this.connections.all()) await this.announce(connection);
  }

  private entryFor(connection: ChargePointConnection): ChargePointPresence {
    return {
      controllerUuid: connection.controllerUuid,
      tenantUuid: connection.tenantUuid,
      ocppIdentity: connection.chargePoint.ocppIdentity,
      protocol: connection.protocol,
      gatewayInstance: this.config.gatewayInstanceId,
      connectionId: connection.connectionId,
      connectedAt: connection.connectedAt.toISOString(),
      refreshedAt: new Date().toISOString(),
    };
  }

  private requireBucket(): KV {
    if (!this.bucket) throw new Error('presence bucket not open yet');
    return this.bucket;
  }
}
