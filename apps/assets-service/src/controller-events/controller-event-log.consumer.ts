import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ChargePointEventSubjects,
  type ControllerEventKind,
  type EventEnvelope,
  isUuid,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { type DeliveredEvent, JetStreamEventBus } from '@cpc/nats';
import { DataSource, type EntityManager } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { isDataException } from '@cpc/database';
import { truncateCodePoints } from '../shared/text-limits.js';
import {
  type LatestStatuses,
  recordControllerEvents,
  recordLatestStatuses,
} from './controller-events.repository.js';

/** Durable names cannot hold dots. */
export const CONTROLLER_EVENTS_CONSUMER = 'assets-service_controller-events';

type Details = Record<string, string | number | boolean | null>;
type Data = Record<string, unknown>;

const text = (value: unknown): string | null =>
  typeof value === 'string' ? truncateCodePoints(value, 1000) : null;
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

/** One event as a row of the log. */
export interface LoggedEvent {
  uuid: string;
  tenantUuid: string;
  controllerUuid: string;
  kind: ControllerEventKind;
  occurredAt: string;
  details: Details;
}

/**
 * The row an event becomes in the log; undefined for an event the log does not keep (another kind) or cannot keep
 * (malformed: ids that are no UUIDs, a time PostgreSQL cannot store). Text loses NUL characters, which jsonb refuses.
 */
export function loggedEventOf(
  subject: string,
  event: EventEnvelope<unknown>,
): LoggedEvent | 'malformed' | undefined {
  const logged = LOGGED[subject];
  if (!logged) return undefined;
  const data = (event.data ?? {}) as Data;
  const occurredAt = typeof event.occurredAt === 'string' ? new Date(event.occurredAt) : undefined;
  const year = occurredAt?.getUTCFullYear() ?? Number.NaN;
  if (
    !isUuid(event.eventId) ||
    !isUuid(event.tenantUuid) ||
    !isUuid(data.controllerUuid) ||
    !(year >= 1 && year <= 9999)
  )
    return 'malformed';
  const details = Object.fromEntries(
    Object.entries(logged.details(data)).map(([key, value]) => [
      key,
      typeof value === 'string' ? value.replaceAll('\u0000', '') : value,
    ]),
  );
  return {
    uuid: event.eventId.toLowerCase(),
    tenantUuid: event.tenantUuid.toLowerCase(),
    controllerUuid: data.controllerUuid.toLowerCase(),
    kind: logged.kind,
    occurredAt: occurredAt!.toISOString(),
    details,
  };
}

/**
 * Writes each controller's event log from the gateway's charge-point events, and the latest firmware and diagnostics
 * status onto the controller. Its own durable consumer, apart from the live state's, so the log never holds the
 * state back. The events delivered so far go in at once, one statement and one commit for the batch: in a reconnect
 * storm one commit per event made the write-ahead log's flushes the service's main wait. Every event is its own row,
 * so order within the log does not matter; the status fields follow the events in stream order.
 */
@Injectable()
export class ControllerEventLogConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ControllerEventLogConsumer.name);

  constructor(
    private readonly eventBus: JetStreamEventBus,
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.eventBus.consumeBatches(
      {
        durableName: CONTROLLER_EVENTS_CONSUMER,
        filterSubject: 'events.charge-point.>',
        maxBatchSize: this.tuning.controllerEventLogBatchSize,
      },
      (batch) => this.handle(batch),
    );
  }

  async handle(batch: readonly Pick<DeliveredEvent, 'subject' | 'event'>[]): Promise<void> {
    const rows: LoggedEvent[] = [];
    for (const { subject, event } of batch) {
      const row = loggedEventOf(subject, event);
      if (row === 'malformed')
        this.logger.warn(`not logging malformed event ${String(event.eventId)} on ${subject}`);
      else if (row) rows.push(row);
    }
    if (rows.length === 0) return;
    try {
      await this.dataSource.transaction((manager) => this.write(manager, rows));
    } catch (error) {
      if (!isDataException(error)) throw error;
      // One event's value the database refuses must not hold the others back forever: each on its own, that one left out.
      for (const row of rows) {
        await this.dataSource
          .transaction((manager) => this.write(manager, [row]))
          .catch((rowError: unknown) => {
            if (!isDataException(rowError)) throw rowError;
            this.logger.warn(`not logging event ${row.uuid}: ${describeError(rowError)}`);
          });
      }
    }
  }

  private async write(manager: EntityManager, rows: readonly LoggedEvent[]): Promise<void> {
    await runStatement(manager, recordControllerEvents, { events: JSON.stringify(rows) });
    const statuses = latestStatusesOf(rows);
    if (statuses.length > 0)
      await runStatement(manager, recordLatestStatuses, { statuses: JSON.stringify(statuses) });
  }
}

/**
 * Per controller, the firmware and diagnostics status the batch's events leave, as applying them one by one in stream
 * order would: the latest by occurredAt, of equal ones the last in the stream (ISO instants of years 1 to 9999 compare
 * as strings). One statement then writes them all, locking the controllers in uuid order.
 */
function latestStatusesOf(rows: readonly LoggedEvent[]): LatestStatuses[] {
  const latest = new Map<string, LatestStatuses>();
  for (const row of rows) {
    if (row.kind !== 'firmware_status' && row.kind !== 'diagnostics_status') continue;
    const key = `${row.tenantUuid} ${row.controllerUuid}`;
    let entry = latest.get(key);
    if (!entry) {
      entry = {
        tenantUuid: row.tenantUuid,
        controllerUuid: row.controllerUuid,
        firmwareStatus: null,
        firmwareAt: null,
        diagnosticsStatus: null,
        diagnosticsAt: null,
      };
      latest.set(key, entry);
    }
    // The controller's columns are varchar(50).
    const status = typeof row.details.status === 'string' ? truncateCodePoints(row.details.status, 50) : null;
    if (row.kind === 'firmware_status') {
      if (entry.firmwareAt === null || entry.firmwareAt <= row.occurredAt) {
        entry.firmwareStatus = status;
        entry.firmwareAt = row.occurredAt;
      }
    } else if (entry.diagnosticsAt === null || entry.diagnosticsAt <= row.occurredAt) {
      entry.diagnosticsStatus = status;
      entry.diagnosticsAt = row.occurredAt;
    }
  }
  return [...latest.values()];
}
