import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { CHARGE_POINT_PRESENCE_BUCKET, type ChargePointPresence } from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { ChargePointConnection } from './charge-point-connection.js';

export interface StalePresence {
  presence: ChargePointPresence;
  revision: number;
}

/**
 * The presence registry (NATS KV, see ChargePointPresence): one entry per connected controller, written by the
 * instance holding the socket. Every write after the first is a compare-and-set on the revision this instance last
 * wrote, so it notices when another party replaced or removed its entry. An entry not refreshed for
 * OCPP_PRESENCE_TTL_MS is stale (its instance died); the bucket itself keeps entries three times as long, which leaves
 * the other instances time to notice and announce the disconnect (PresenceUpkeep) before NATS drops the entry.
 */
@Injectable()
export class ChargePointPresenceRegistry implements OnModuleInit {
  private bucket: KV | undefined;
  private readonly revisions = new Map<string, number>();

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.bucket = await new Kvm(this.nats).create(CHARGE_POINT_PRESENCE_BUCKET, {
      ttl: 3 * this.config.presenceTtlMs,
      history: 1,
    });
  }

  async announce(connection: ChargePointConnection): Promise<void> {
    const revision = await this.requireBucket().put(connection.controllerUuid, this.entryFor(connection));
    this.revisions.set(connection.connectionId, revision);
  }

  /** False when the entry is no longer the one this instance wrote (swept as stale, or taken over). */
  async refresh(connection: ChargePointConnection): Promise<boolean> {
    const revision = this.revisions.get(connection.connectionId);
    if (revision === undefined) return false;
    try {
      const next = await this.requireBucket().update(
        connection.controllerUuid,
        this.entryFor(connection),
        revision,
      );
      this.revisions.set(connection.connectionId, next);
      return true;
    } catch {
      return false;
    }
  }

  /** The connection id the controller's entry names, if there is one. */
  async holder(controllerUuid: string): Promise<string | undefined> {
    return (await this.entry(controllerUuid))?.connectionId;
  }

  /** The controller's entry, unless there is none or its instance stopped refreshing it. */
  async current(controllerUuid: string): Promise<ChargePointPresence | undefined> {
    const presence = await this.entry(controllerUuid);
    if (!presence || Date.parse(presence.refreshedAt) < Date.now() - this.config.presenceTtlMs)
      return undefined;
    return presence;
  }

  private async entry(controllerUuid: string): Promise<ChargePointPresence | undefined> {
    const entry = await this.requireBucket().get(controllerUuid);
    return entry?.operation === 'PUT' ? entry.json<ChargePointPresence>() : undefined;
  }

  /** Deletes the entry only while it still names this connection: a newer socket elsewhere may own it already. */
  async withdraw(connection: ChargePointConnection): Promise<void> {
    this.revisions.delete(connection.connectionId);
    const bucket = this.requireBucket();
    const entry = await bucket.get(connection.controllerUuid);
    if (!entry || entry.operation !== 'PUT') return;
    if (entry.json<ChargePointPresence>().connectionId !== connection.connectionId) return;
    // A concurrent write wins the compare-and-delete; that is the outcome we want.
    await bucket.delete(connection.controllerUuid, { previousSeq: entry.revision }).catch(() => undefined);
  }

  /** Entries whose instance stopped refreshing them. */
  async staleEntries(): Promise<StalePresence[]> {
    const bucket = this.requireBucket();
    const staleBefore = Date.now() - this.config.presenceTtlMs;
    const stale: StalePresence[] = [];
    for await (const key of await bucket.keys()) {
      const entry = await bucket.get(key);
      if (!entry || entry.operation !== 'PUT') continue;
      const presence = entry.json<ChargePointPresence>();
      if (Date.parse(presence.refreshedAt) < staleBefore) stale.push({ presence, revision: entry.revision });
    }
    return stale;
  }

  /** True for the one caller (of any instance) that removed it. */
  async removeStale(stale: StalePresence): Promise<boolean> {
    try {
      await this.requireBucket().delete(stale.presence.controllerUuid, { previousSeq: stale.revision });
      return true;
    } catch {
      return false;
    }
  }

  private entryFor(connection: ChargePointConnection): string {
    const presence: ChargePointPresence = {
      controllerUuid: connection.controllerUuid,
      tenantUuid: connection.tenantUuid,
      ocppIdentity: connection.chargePoint.ocppIdentity,
      protocol: connection.protocol,
      securityProfile: connection.chargePoint.securityProfile,
      gatewayInstance: this.config.gatewayInstanceId,
      connectionId: connection.connectionId,
      connectedAt: connection.connectedAt,
      refreshedAt: new Date().toISOString(),
    };
    return JSON.stringify(presence);
  }

  private requireBucket(): KV {
    if (!this.bucket) throw new Error('presence bucket not open yet');
    return this.bucket;
  }
}
