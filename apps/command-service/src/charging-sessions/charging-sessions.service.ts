import { Injectable } from '@nestjs/common';
import {
  chargingSessionUuidOf,
  type ChargingSessionFilter,
  type ChargingSessionPage,
  type ChargingSessionSortField,
  type ChargingSessionView,
  type ListChargingSessionsPayload,
  type TransactionEndedEvent,
  type TransactionStartedEvent,
  type TransactionUpdatedEvent,
  UUID_PATTERN,
} from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { buildPagination, pageOffset } from '@cpc/pagination';
import { runStatement } from '@cpc/database';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import {
  endSessionsRebootedOnConnector,
  markSessionsRebooted,
  recordChargingSessionEnd,
  recordChargingSessionLocation,
  recordChargingSessionMeterValue,
  recordChargingSessionStart,
  type SessionPlugState,
  setChargingSessionPlug,
  supersedeOlderSessions,
} from '../repositories/charging-sessions.repository.js';
import { ChargingSessionEntity } from './charging-session.entity.js';

const SORT_COLUMNS: Record<ChargingSessionSortField, string> = {
  started_at: 'session.startedAt',
  created_at: 'session.createdAt',
};

/** 0 means "the whole charge point" (1.6) or "not known yet" (2.0.1 before a cable is in): no connector. */
function connectorOrNull(value: number | null): number | null {
  return value === null || value === 0 ? null : value;
}

/**
 * Charging sessions: written only from the gateway's transaction events, read by the API. Every write is an upsert on
 * (tenant, controller, transaction id) that fills what it knows and keeps what is known already, so redelivered and
 * reordered events (an end before its start, after a redelivery) converge to the same row, whose uuid is derived
 * from that key (chargingSessionUuidOf), so webhook-service names the same session.
 */
@Injectable()
export class ChargingSessionsService {
  constructor(private readonly dataSource: DataSource) {}

  async recordStart(tenantUuid: string, data: TransactionStartedEvent['data']): Promise<SessionPlugState> {
    const [row] = await runStatement(this.dataSource, recordChargingSessionStart, {
      uuid: chargingSessionUuidOf(tenantUuid, data.controllerUuid, data.transactionId),
      tenantUuid,
      controllerUuid: data.controllerUuid,
      transactionId: data.transactionId,
      connectorId: connectorOrNull(data.connectorId),
      evseId: data.evseId,
      idTag: data.idTag,
      startedAt: data.startedAt,
      meterStartWh: data.meterStartWh,
    });
    return row;
  }

  /** Keeps the latest reading by sample time. */
  async recordMeterValue(tenantUuid: string, data: TransactionUpdatedEvent['data']): Promise<void> {
    await runStatement(this.dataSource, recordChargingSessionMeterValue, {
      uuid: chargingSessionUuidOf(tenantUuid, data.controllerUuid, data.transactionId),
      tenantUuid,
      controllerUuid: data.controllerUuid,
      transactionId: data.transactionId,
      meterWh: data.meterWh,
      sampledAt: data.sampledAt,
    });
  }

  /** The EVSE / connector a later message names; null when the session is not known (yet). */
  async recordLocation(
    tenantUuid: string,
    data: TransactionUpdatedEvent['data'] | TransactionEndedEvent['data'],
  ): Promise<SessionPlugState | null> {
    const [row] = await runStatement(this.dataSource, recordChargingSessionLocation, {
      tenantUuid,
      controllerUuid: data.controllerUuid,
      transactionId: data.transactionId,
      connectorId: connectorOrNull(data.connectorId ?? null),
      evseId: data.evseId ?? null,
    });
    return row ?? null;
  }

  async recordEnd(tenantUuid: string, data: TransactionEndedEvent['data']): Promise<void> {
    await runStatement(this.dataSource, recordChargingSessionEnd, {
      uuid: chargingSessionUuidOf(tenantUuid, data.controllerUuid, data.transactionId),
      tenantUuid,
      controllerUuid: data.controllerUuid,
      transactionId: data.transactionId,
      stoppedAt: data.stoppedAt,
      meterStopWh: data.meterStopWh,
      stopReason: data.reason?.slice(0, 50) ?? null,
    });
  }

  /** Ends the older sessions open on the session's connector; returns how many. */
  async supersedeOlder(sessionUuid: string): Promise<number> {
    const ended = await runStatement(this.dataSource, supersedeOlderSessions, {
      uuid: sessionUuid,
      plugUuid: null,
    });
    return ended.length;
  }

  /**
   * Gives the session its plug, in one transaction with ending every other session open on that plug but the latest
   * started (the session itself, when a newer one holds the plug): a plug never has two active sessions.
   */
  async setPlug(sessionUuid: string, plugUuid: string): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const ended = await runStatement(manager, supersedeOlderSessions, { uuid: sessionUuid, plugUuid });
      await runStatement(manager, setChargingSessionPlug, { uuid: sessionUuid, plugUuid });
      return ended.length;
    });
  }

  async markRebooted(tenantUuid: string, controllerUuid: string, bootedAt: string): Promise<void> {
    await runStatement(this.dataSource, markSessionsRebooted, { tenantUuid, controllerUuid, bootedAt });
  }

  /** A connector reported Available: the sessions on it that its charge point's boot interrupted end; returns how many. */
  async endRebootedOnConnector(
    tenantUuid: string,
    controllerUuid: string,
    connectorId: number,
    evseId: number | null,
  ): Promise<number> {
    const ended = await runStatement(this.dataSource, endSessionsRebootedOnConnector, {
      tenantUuid,
      controllerUuid,
      connectorId,
      evseId,
    });
    return ended.length;
  }

  async get(tenantUuid: string, uuid: string): Promise<ChargingSessionView> {
    if (typeof uuid !== 'string' || !UUID_PATTERN.test(uuid)) throw new NotFoundError('charging session');
    const session = await this.dataSource
      .getRepository(ChargingSessionEntity)
      .findOneBy({ tenantUuid, uuid });
    if (!session) throw new NotFoundError('charging session');
    return toView(session);
  }

  async list(tenantUuid: string, request: ListChargingSessionsPayload): Promise<ChargingSessionPage> {
    const query = this.dataSource
      .getRepository(ChargingSessionEntity)
      .createQueryBuilder('session')
      .where('session.tenantUuid = :tenantUuid', { tenantUuid });
    applyFilter(query, request.filter);
    const orderBy =
      request.orderBy.length > 0
        ? request.orderBy
        : [{ field: 'started_at' as const, direction: 'desc' as const }];
    orderBy.forEach((sort, index) => {
      // Sessions whose start is not known yet sort last either way.
      const direction = sort.direction === 'asc' ? 'ASC' : 'DESC';
      if (index === 0) query.orderBy(SORT_COLUMNS[sort.field], direction, 'NULLS LAST');
      else query.addOrderBy(SORT_COLUMNS[sort.field], direction, 'NULLS LAST');
    });
    query.addOrderBy('session.uuid', 'ASC').offset(pageOffset(request)).limit(request.limit);
    const [rows, total] = await query.getManyAndCount();
    return { items: rows.map(toView), pagination: buildPagination(request, total) };
  }
}

function applyFilter(query: SelectQueryBuilder<ChargingSessionEntity>, filter: ChargingSessionFilter): void {
  if (filter.controller_uuid)
    query.andWhere('session.controllerUuid = :controllerUuid', { controllerUuid: filter.controller_uuid });
  if (filter.plug_uuid) query.andWhere('session.plugUuid = :plugUuid', { plugUuid: filter.plug_uuid });
  if (filter.status === 'active') query.andWhere('session.stoppedAt IS NULL');
  if (filter.status === 'completed') query.andWhere('session.stoppedAt IS NOT NULL');
  if (filter.id_tag) query.andWhere('session.idTag = :idTag', { idTag: filter.id_tag });
  if (filter.ocpp_transaction_id) {
    query.andWhere('session.ocppTransactionId = :transactionId', {
      transactionId: filter.ocpp_transaction_id,
    });
  }
  if (filter.started_from)
    query.andWhere('session.startedAt >= :startedFrom', { startedFrom: filter.started_from });
  if (filter.started_to) query.andWhere('session.startedAt < :startedTo', { startedTo: filter.started_to });
}

/** ISO 8601 in UTC with seconds precision and `Z`, as the spec writes date-times. */
function isoSeconds(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isoSecondsOrNull(value: Date | null): string | null {
  return value ? isoSeconds(value) : null;
}

/** A numeric column (pg gives numerics as strings) as a number. */
function wh(value: string | null): number | null {
  return value === null ? null : Number(value);
}

function toView(session: ChargingSessionEntity): ChargingSessionView {
  const start = wh(session.meterStartWh);
  const end = wh(session.meterStopWh) ?? wh(session.meterLastWh);
  return {
    uuid: session.uuid,
    controller_uuid: session.controllerUuid,
    plug_uuid: session.plugUuid,
    connector_id: session.connectorId,
    evse_id: session.evseId,
    ocpp_transaction_id: session.ocppTransactionId,
    id_tag: session.idTag,
    status: session.stoppedAt ? 'completed' : 'active',
    started_at: isoSecondsOrNull(session.startedAt),
    stopped_at: isoSecondsOrNull(session.stoppedAt),
    meter_start_wh: start,
    meter_stop_wh: wh(session.meterStopWh),
    energy_wh: start !== null && end !== null ? Math.round((end - start) * 1000) / 1000 : null,
    stop_reason: session.stopReason,
    peak_power_w: wh(session.peakPowerW),
    last_sample_at: isoSecondsOrNull(session.lastSampleAt),
    created_at: isoSeconds(session.createdAt),
    updated_at: isoSeconds(session.updatedAt),
  };
}
