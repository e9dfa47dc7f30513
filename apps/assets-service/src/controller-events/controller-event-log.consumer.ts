import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ChargePointEventSubjects,
  type ControllerEventKind,
  type EventEnvelope,
  isUuid,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource } from 'typeorm';
import {
  recordControllerEvent,
  recordDiagnosticsStatus,
  recordFirmwareStatus,
} from './controller-events.repository.js';

/** Durable names cannot hold dots. */
export const CONTROLLER_EVENTS_CONSUMER = 'assets-service_controller-events';

type Details = Record<string, string | number | boolean | null>;
type Data = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value.slice(0, 1000) : null);
const integer = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);

/** Which gateway events go to the log, as which kind, with which of their fields (snake case). */
const LOGGED: Record<string, { kind: ControllerEventKind; details: (data: Data) => Details }> = {
  [ChargePointEventSubjects.connected]: {
    kind: 'connected',
    details: (data) => ({ protocol: text(data.protocol), gateway_instance: text(data.gatewayInstance) }),
  },
  [ChargePointEventSubjects.disconnected]: {
    kind: 'disconnected',
    details: (data) => ({
      reason: text(data.reason),
      close_code: integer(data.closeCode),
      gateway_instance: text(data.gatewayInstance),
    }),
  },
  [ChargePointEventSubjects.booted]: {
    kind: 'booted',
    details: (data) => ({
      vendor: text(data.vendor),
      model: text(data.model),
      serial_number: text(data.serialNumber),
      firmware_version: text(data.firmwareVersion),
    }),
  },
  [ChargePointEventSubjects.connectorStatus]: {
    kind: 'status_changed',
    details: (data) => ({
      connector_id: integer(data.connectorId),
      evse_id: integer(data.evseId),
      status: text(data.status),
      error_code: text(data.errorCode),
      reported_at: text(data.reportedAt),
    }),
  },
  [ChargePointEventSubjects.firmwareStatus]: {
    kind: 'firmware_status',
    details: (data) => ({ status: text(data.status), request_id: integer(data.requestId) }),
  },
  [ChargePointEventSubjects.diagnosticsStatus]: {
    kind: 'diagnostics_status',
    details: (data) => ({ status: text(data.status), request_id: integer(data.requestId) }),
  },
  [ChargePointEventSubjects.securityEvent]: {
    kind: 'security_event',
    details: (data) => ({
      type: text(data.type),
      tech_info: text(data.techInfo),
      reported_at: text(data.reportedAt),
    }),
  },
  [ChargePointEventSubjects.reservationStatus]: {
    kind: 'reservation_status',
    details: (data) => ({ reservation_id: integer(data.reservationId), status: text(data.status) }),
  },
};

/** The kinds whose latest status is also a field of the controller. */
const STATUS_FIELDS = {
  firmware_status: recordFirmwareStatus,
  diagnostics_status: recordDiagnosticsStatus,
} as const;

/**
 * Writes each controller's event log from the gateway's charge-point events, and the latest firmware and diagnostics
 * status onto the controller. Its own durable consumer, apart from the
 * live state's, so the log never holds the state back; every event is its own row, so order does not matter and
 * several are written at once.
 */
@Injectable()
export class ControllerEventLogConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ControllerEventLogConsumer.name);

  constructor(
    private readonly eventBus: JetStreamEventBus,
    private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.eventBus.consume(
      { durableName: CONTROLLER_EVENTS_CONSUMER, filterSubject: 'events.charge-point.>', concurrency: 32 },
      (subject, event) => this.handle(subject, event),
    );
  }

  async handle(subject: string, event: EventEnvelope<unknown>): Promise<void> {
    const logged = LOGGED[subject];
    if (!logged) return;
    const data = (event.data ?? {}) as Data;
    if (
      !isUuid(event.eventId) ||
      !isUuid(event.tenantUuid) ||
      !isUuid(data.controllerUuid) ||
      !Number.isFinite(Date.parse(event.occurredAt))
    ) {
      this.logger.warn(`not logging malformed event ${String(event.eventId)} on ${subject}`);
      return;
    }
    const details = logged.details(data);
    await runStatement(this.dataSource, recordControllerEvent, {
      uuid: event.eventId,
      tenantUuid: event.tenantUuid,
      controllerUuid: data.controllerUuid,
      kind: logged.kind,
      occurredAt: event.occurredAt,
      details: JSON.stringify(details),
    });
    if (logged.kind === 'firmware_status' || logged.kind === 'diagnostics_status') {
      await runStatement(this.dataSource, STATUS_FIELDS[logged.kind], {
        tenantUuid: event.tenantUuid,
        controllerUuid: data.controllerUuid,
        status: typeof details.status === 'string' ? details.status.slice(0, 50) : null,
        occurredAt: event.occurredAt,
      });
    }
  }
}
