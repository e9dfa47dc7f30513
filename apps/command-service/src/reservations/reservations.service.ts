import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  chargingSessionUuidOf,
  type EventEnvelope,
  isUuid,
  type ListReservationsPayload,
  type OcppCallCompletedEvent,
  type ReservationPage,
  type ReservationStatus,
  ReservationSubjects,
  type ReservationView,
} from '@cpc/contracts';
import { runPagedList, runStatement } from '@cpc/database';
import { NotFoundError } from '@cpc/errors';
import { ocppIdFromCommandUuid } from '@cpc/ocpp-commands';
import { cursorScope } from '@cpc/pagination';
import { DataSource } from 'typeorm';
import {
  cancelReservation,
  endReservation,
  getReservation,
  lockReservationId,
  lockReservationIdOfCommand,
  recordReservation,
  type ReservationRow,
  reservationsList,
  useReservation,
} from '../repositories/reservations.repository.js';

/** 2.0.1 ReservationStatusUpdate `reservationUpdateStatus` → the reservation's status. */
const STATUS_UPDATES: Readonly<Record<string, 'expired' | 'removed'>> = {
  Expired: 'expired',
  Removed: 'removed',
};

/** What a transaction event says of the reservation it used. */
interface ReservationUse {
  controllerUuid: string;
  transactionId: string;
  reservationId?: number | null;
  startedAt?: string;
  sampledAt?: string;
}

const isOcppId = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 2_147_483_647;

/**
 * Reservations (control.reservations): a reserve command the charge point accepted becomes one; it ends when the
 * charge point accepts a cancel_reservation for it, starts a transaction with it, reports it expired or removed
 * (2.0.1), or when its expiry passes (at read time). Fed by the gateway's call-completed events (the answers) and
 * charge-point events (transactions, status updates), both durable and idempotent here.
 */
@Injectable()
export class ReservationsService {
  private readonly logger = new Logger(ReservationsService.name);

  constructor(private readonly dataSource: DataSource) {}

  /** The charge point's answer to a command: an accepted ReserveNow or CancelReservation changes reservations. */
  async recordAnswer(event: OcppCallCompletedEvent): Promise<void> {
    const { reply, commandUuid } = event.data;
    if (reply.outcome !== 'answered' || reply.status !== 'accepted') return;
    const at = typeof event.occurredAt === 'string' ? event.occurredAt : new Date().toISOString();
    if (reply.action === 'ReserveNow') {
      const generatedId = ocppIdFromCommandUuid(commandUuid);
      await this.dataSource.transaction(async (manager) => {
        await runStatement(manager, lockReservationIdOfCommand, { commandUuid, generatedId });
        await runStatement(manager, recordReservation, {
          uuid: randomUUID(),
          commandUuid,
          generatedId,
          acceptedAt: at,
        });
      });
    } else if (reply.action === 'CancelReservation') {
      const cancelled = await runStatement(this.dataSource, cancelReservation, {
        commandUuid,
        cancelledAt: at,
      });
      if (cancelled.length === 0)
        this.logger.log(`cancel_reservation ${commandUuid} matched no active reservation`);
    }
  }

  /** A transaction that names a reservation used it up, even when heard before the reservation's acceptance. */
  async recordUse(tenantUuid: string, data: ReservationUse): Promise<void> {
    const { reservationId, controllerUuid, transactionId } = data;
    if (!isOcppId(reservationId)) return;
    await this.dataSource.transaction(async (manager) => {
      await runStatement(manager, lockReservationId, { controllerUuid, reservationId });
      await runStatement(manager, useReservation, {
        tenantUuid,
        controllerUuid,
        reservationId,
        usedAt: data.startedAt ?? data.sampledAt ?? new Date().toISOString(),
        transactionId,
        sessionUuid: chargingSessionUuidOf(tenantUuid, controllerUuid, transactionId),
      });
    });
  }

  /** 2.0.1 ReservationStatusUpdate: the station ended the reservation (Expired, Removed). */
  async recordStatusUpdate(event: EventEnvelope<unknown>): Promise<void> {
    const data = (event.data ?? {}) as {
      controllerUuid?: unknown;
      reservationId?: unknown;
      status?: unknown;
    };
    const status = typeof data.status === 'string' ? STATUS_UPDATES[data.status] : undefined;
    if (
      !isUuid(event.tenantUuid) ||
      !isUuid(data.controllerUuid) ||
      !isOcppId(data.reservationId) ||
      !status
    ) {
      this.logger.warn(`ignoring malformed reservation status event ${String(event.eventId)}`);
      return;
    }
    const { controllerUuid, reservationId } = data;
    await this.dataSource.transaction(async (manager) => {
      // As a use does: the acceptance and this take turns, so an end is either applied or kept aside for it.
      await runStatement(manager, lockReservationId, { controllerUuid, reservationId });
      await runStatement(manager, endReservation, {
        tenantUuid: event.tenantUuid,
        controllerUuid,
        reservationId,
        status,
        endedAt: typeof event.occurredAt === 'string' ? event.occurredAt : new Date().toISOString(),
      });
    });
  }

  async get(tenantUuid: string, uuid: string): Promise<ReservationView> {
    if (!isUuid(uuid)) throw new NotFoundError('reservation');
    const [row] = await runStatement(this.dataSource, getReservation, {
      tenantUuid,
      uuid: uuid.toLowerCase(),
    });
    if (!row) throw new NotFoundError('reservation');
    return toView(row);
  }

  /**
   * A numbered page (with a count for total_pages and cursors to go on from it), or with `cursor` a page read by
   * keyset from the cursor's key: no count, no OFFSET, so any page costs what the first does.
   */
  async list(tenantUuid: string, request: ListReservationsPayload): Promise<ReservationPage> {
    const { filter } = request;
    const scope = cursorScope(ReservationSubjects.list, tenantUuid, {
      filter,
      order: reservationsList.page.name,
    });
    const { rows, pagination } = await runPagedList(
      this.dataSource,
      reservationsList,
      {
        tenantUuid,
        controllerUuid: filter.controller_uuid ?? null,
        plugUuid: filter.plug_uuid ?? null,
        status: filter.status ?? null,
        idTag: filter.id_tag ?? null,
        reservationId: filter.reservation_id ?? null,
      },
      request,
      scope,
    );
    return { items: rows.map(toView), pagination };
  }
}

/** ISO 8601 in UTC with seconds precision and `Z`, as the spec writes date-times. */
function isoSeconds(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function toView(row: ReservationRow): ReservationView {
  return {
    uuid: row.uuid,
    controller_uuid: row.controller_uuid,
    plug_uuid: row.plug_uuid,
    connector_id: row.connector_id,
    evse_id: row.evse_id,
    reservation_id: row.reservation_id,
    id_tag: row.id_tag,
    expires_at: isoSeconds(row.expires_at),
    status: row.status as ReservationStatus,
    ended_at: row.ended_at ? isoSeconds(row.ended_at) : null,
    charging_session_uuid: row.charging_session_uuid,
    reserve_command_uuid: row.reserve_command_uuid,
    cancel_command_uuid: row.cancel_command_uuid,
    created_at: isoSeconds(row.created_at),
    updated_at: isoSeconds(row.updated_at),
  };
}
