import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  type ChargePointBootedEvent,
  type ChargePointConnectedEvent,
  type ChargePointDisconnectedEvent,
  ChargePointEventSubjects,
  type ConnectorStatusEvent,
  type EventEnvelope,
  UUID_PATTERN,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';

/** Durable names cannot hold dots. */
export const CHARGE_POINT_STATE_CONSUMER = 'assets-service_charge-point-state';

interface ChargePointData {
  controllerUuid?: unknown;
}

/**
 * Keeps the live state of controllers and plugs as the ocpp-gateway reports it: online/offline, protocol, boot
 * information, last contact and each plug's status. One durable consumer over every charge-point event, in stream
 * order. Each update only applies when the event is not older (by occurredAt) than what the row already reflects, so
 * a redelivered or late event changes nothing; events about unknown or deleted controllers are dropped.
 */
@Injectable()
export class ChargePointStateConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChargePointStateConsumer.name);

  constructor(
    private readonly eventBus: JetStreamEventBus,
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.eventBus.consume(
      {
        durableName: CHARGE_POINT_STATE_CONSUMER,
        filterSubject: 'events.charge-point.>',
        retryDelayMs: this.tuning.chargePointStateRetryDelayMs,
        maxAckPending: this.tuning.chargePointStateMaxAckPending,
        pullBatchSize: this.tuning.chargePointStatePullBatchSize,
      },
      (subject, event) => this.handle(subject, event),
    );
  }

  async handle(subject: string, event: EventEnvelope<unknown>): Promise<void> {
    const data = (event.data ?? {}) as ChargePointData;
    const occurredAt = new Date(event.occurredAt);
    if (
      typeof event.tenantUuid !== 'string' ||
      !UUID_PATTERN.test(event.tenantUuid) ||
      typeof data.controllerUuid !== 'string' ||
      !UUID_PATTERN.test(data.controllerUuid) ||
      Number.isNaN(occurredAt.getTime())
    ) {
      this.logger.warn(`ignoring malformed event ${String(event.eventId)} on ${subject}`);
      return;
    }
    const key = [event.tenantUuid, data.controllerUuid, occurredAt] as const;
    switch (subject) {
      case ChargePointEventSubjects.connected:
        return this.connected(key, (event as ChargePointConnectedEvent).data);
      case ChargePointEventSubjects.disconnected:
        return this.disconnected(key, (event as ChargePointDisconnectedEvent).data);
      case ChargePointEventSubjects.booted:
        await this.touch(key);
        return this.booted(key, (event as ChargePointBootedEvent).data);
      case ChargePointEventSubjects.connectorStatus:
        await this.touch(key);
        return this.connectorStatus(key, (event as ConnectorStatusEvent).data);
      default:
        // Transactions, firmware, diagnostics, security events: only proof that the charge point is there.
        return this.touch(key);
    }
  }

  /** The charge point was heard from. */
  private async touch([tenantUuid, controllerUuid, at]: readonly [string, string, Date]): Promise<void> {
    await this.dataSource.query(
      `UPDATE assets.controllers SET last_seen_at = $3
        WHERE tenant_uuid = $1 AND uuid = $2 AND (last_seen_at IS NULL OR last_seen_at < $3)`,
      [tenantUuid, controllerUuid, at],
    );
  }

  private async connected(
    [tenantUuid, controllerUuid, at]: readonly [string, string, Date],
    data: ChargePointConnectedEvent['data'],
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE assets.controllers
          SET connection_status = 'online', connection_id = $4, ocpp_protocol = $5, connection_changed_at = $3,
              last_seen_at = GREATEST(last_seen_at, $3)
        WHERE tenant_uuid = $1 AND uuid = $2 AND (connection_changed_at IS NULL OR connection_changed_at <= $3)`,
      [tenantUuid, controllerUuid, at, stringOrNull(data.connectionId), stringOrNull(data.protocol)],
    );
  }

  /** A disconnect of a connection that another one replaced already leaves the controller online. */
  private async disconnected(
    [tenantUuid, controllerUuid, at]: readonly [string, string, Date],
    data: ChargePointDisconnectedEvent['data'],
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE assets.controllers
          SET connection_status = 'offline', connection_id = NULL, connection_changed_at = $3
        WHERE tenant_uuid = $1 AND uuid = $2 AND (connection_changed_at IS NULL OR connection_changed_at <= $3)
          AND ($4::varchar IS NULL OR connection_id IS NULL OR connection_id = $4::varchar)`,
      [tenantUuid, controllerUuid, at, stringOrNull(data.connectionId)],
    );
  }

  private async booted(
    [tenantUuid, controllerUuid, at]: readonly [string, string, Date],
    data: ChargePointBootedEvent['data'],
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE assets.controllers
          SET vendor = $4, model = $5, serial_number = $6, firmware_version = $7, booted_at = $3
        WHERE tenant_uuid = $1 AND uuid = $2 AND (booted_at IS NULL OR booted_at <= $3)`,
      [
        tenantUuid,
        controllerUuid,
        at,
        stringOrNull(data.vendor),
        stringOrNull(data.model),
        stringOrNull(data.serialNumber),
        stringOrNull(data.firmwareVersion),
      ],
    );
  }

  /**
   * OCPP 1.6 numbers connectors across the charge point (0 = the charge point itself, which is no plug); OCPP 2.0.1
   * numbers them within an EVSE, so there the plug is the n-th (by connector_id) of the plugs with that evse_id.
   */
  private async connectorStatus(
    [tenantUuid, controllerUuid, at]: readonly [string, string, Date],
    data: ConnectorStatusEvent['data'],
  ): Promise<void> {
    const connectorId = Number(data.connectorId);
    const evseId = data.evseId === null || data.evseId === undefined ? null : Number(data.evseId);
    if (!Number.isSafeInteger(connectorId) || connectorId < 1 || typeof data.status !== 'string') return;
    if (evseId !== null && !Number.isSafeInteger(evseId)) return;
    await this.dataSource.query(
      `UPDATE assets.plugs SET status = $5::varchar, error_code = $6::varchar, status_updated_at = $3::timestamptz
        WHERE uuid = (
            SELECT uuid FROM assets.plugs
             WHERE tenant_uuid = $1 AND controller_uuid = $2
               AND ($7::int IS NULL AND connector_id = $4::int OR evse_id = $7::int)
             ORDER BY connector_id
             OFFSET CASE WHEN $7::int IS NULL THEN 0 ELSE $4::int - 1 END LIMIT 1)
          AND (status_updated_at IS NULL OR status_updated_at <= $3)`,
      [
        tenantUuid,
        controllerUuid,
        at,
        connectorId,
        data.status.slice(0, 50),
        stringOrNull(data.errorCode),
        evseId,
      ],
    );
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
