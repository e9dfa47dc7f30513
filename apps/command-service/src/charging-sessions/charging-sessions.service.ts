import { Injectable, Logger } from '@nestjs/common';
import {
  chargingSessionUuidOf,
  type ChargingSessionPage,
  ChargingSessionSubjects,
  type ChargingSessionView,
  type ListChargingSessionsPayload,
  type TransactionEndedEvent,
  type TransactionStartedEvent,
  type TransactionUpdatedEvent,
  UUID_PATTERN,
} from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { cursorScope } from '@cpc/pagination';
import { runPagedList, runStatement } from '@cpc/database';
import { DataSource } from 'typeorm';
import {
  chargingSessionsList,
  endReusedTransactionSessions,
  endSessionsRebootedOnConnector,
  findControllersWithOpenSessions,
  markSessionsRebooted,
  recordChargingSessionEnd,
  recordChargingSessionIdTag,
  recordChargingSessionLocation,
  recordChargingSessionMeterValue,
  recordChargingSessionStart,
  resummarizeReusedTransaction,
  type ListedChargingSessionRow,
  type SessionPlugState,
  setChargingSessionPlug,
  lockMeterSummaries,
  lockPlugAssignment,
  supersedeOlderSessions,
} from '../repositories/charging-sessions.repository.js';
import { ChargingSessionEntity } from './charging-session.entity.js';
import { writingNewSession } from './session-first-write.js';

/** How often a start is written when another start took the session it found meanwhile (recordChargingSessionStart). */
const START_ATTEMPTS = 3;

/**
 * The uuid of a later session of a transaction id the charge point used again: derived from the id and the start,
 * so that a repeated start names the same one. A NUL separates them, which no stored transaction id holds.
 */
export function reusedTransactionSessionUuid(
  tenantUuid: string,
  controllerUuid: string,
  transactionId: string,
  startedAt: string,
): string {
  const start = Date.parse(startedAt);
  const instant = Number.isFinite(start) ? new Date(start).toISOString() : startedAt;
  return chargingSessionUuidOf(tenantUuid, controllerUuid, `${transactionId}\u0000${instant}`);
}

/** 0 means "the whole charge point" (1.6) or "not known yet" (2.0.1 before a cable is in): no connector. */
function connectorOrNull(value: number | null): number | null {
  return value === null || value === 0 ? null : value;
}

/** A controller as sessions belong to it. */
export interface SessionController {
  tenantUuid: string;
  controllerUuid: string;
}

/** The controller's key in sets of controllers (uuids in any case name the same controller). */
export function sessionControllerKey({ tenantUuid, controllerUuid }: SessionController): string {
  return `${tenantUuid}/${controllerUuid}`.toLowerCase();
}

/**
 * Charging sessions: written only from the gateway's transaction events, read by the API. A session is one start of a
 * transaction id of a controller: a charge point may use an id again (2.0.1 ids are its own), so a start finds its
 * session by the id and its start time, and every other event by the id and its time (the session whose range holds
 * it, transaction-session-ranges.ts). Every write is an upsert on the session that fills what it knows and keeps
 * what is known already, so redelivered and reordered events (an end before its start, after a redelivery) converge
 * to the same row. The first session of an id has the uuid derived from the id (chargingSessionUuidOf), which
 * webhook-service names too; a later one a uuid derived from the id and its start.
 */
@Injectable()
export class ChargingSessionsService {
  private readonly logger = new Logger(ChargingSessionsService.name);

  constructor(private readonly dataSource: DataSource) {}

  async recordStart(tenantUuid: string, data: TransactionStartedEvent['data']): Promise<SessionPlugState> {
    const { controllerUuid, transactionId } = data;
    const parameters = {
      uuid: chargingSessionUuidOf(tenantUuid, controllerUuid, transactionId),
      startUuid: reusedTransactionSessionUuid(tenantUuid, controllerUuid, transactionId, data.startedAt),
      tenantUuid,
      controllerUuid,
      transactionId,
      connectorId: connectorOrNull(data.connectorId),
      evseId: data.evseId,
      idTag: data.idTag,
      startedAt: data.startedAt,
      meterStartWh: data.meterStartWh,
    };
    for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      const [row] = await writingNewSession(() =>
        runStatement(this.dataSource, recordChargingSessionStart, parameters),
      );
      if (!row) continue;
      const { idReused, ...session } = row;
      if (idReused)
        await this.settleReusedTransaction(tenantUuid, controllerUuid, transactionId, session.uuid);
      return session;
    }
    throw new Error(
      `start of transaction ${transactionId}: its session was taken by another start each time`,
    );
  }

  /**
   * After a start of a transaction id that has other sessions: those still open before a later one end, and the meter
   * summaries that counted values of another session's range are made again. Idempotent, like the start.
   */
  private async settleReusedTransaction(
    tenantUuid: string,
    controllerUuid: string,
    transactionId: string,
    uuid: string,
  ): Promise<void> {
    const transaction = { tenantUuid, controllerUuid, transactionId };
    const ended = await runStatement(this.dataSource, endReusedTransactionSessions, transaction);
    if (ended.length > 0) {
      this.logger.log(
        `transaction id ${transactionId} of controller ${controllerUuid} used again: ${ended.length} older ` +
          'session(s) of it ended',
      );
    }
    await this.dataSource.transaction(async (manager) => {
      await runStatement(manager, lockMeterSummaries, transaction);
      await runStatement(manager, resummarizeReusedTransaction, { ...transaction, uuid });
    });
  }

  /** Keeps the latest reading by sample time. */
  async recordMeterValue(tenantUuid: string, data: TransactionUpdatedEvent['data']): Promise<void> {
    await writingNewSession(() =>
      runStatement(this.dataSource, recordChargingSessionMeterValue, {
        uuid: chargingSessionUuidOf(tenantUuid, data.controllerUuid, data.transactionId),
        tenantUuid,
        controllerUuid: data.controllerUuid,
        transactionId: data.transactionId,
        meterWh: data.meterWh,
        sampledAt: data.sampledAt,
      }),
    );
  }

  /** The id token a later message names (2.0.1, authorized after the start); the first one known is kept. */
  async recordIdTag(
    tenantUuid: string,
    data: Pick<TransactionUpdatedEvent['data'], 'controllerUuid' | 'transactionId' | 'sampledAt'> & {
      idTag: string;
    },
  ): Promise<void> {
    await writingNewSession(() =>
      runStatement(this.dataSource, recordChargingSessionIdTag, {
        uuid: chargingSessionUuidOf(tenantUuid, data.controllerUuid, data.transactionId),
        tenantUuid,
        controllerUuid: data.controllerUuid,
        transactionId: data.transactionId,
        at: data.sampledAt,
        idTag: data.idTag,
      }),
    );
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
      at: 'stoppedAt' in data ? data.stoppedAt : data.sampledAt,
      connectorId: connectorOrNull(data.connectorId ?? null),
      evseId: data.evseId ?? null,
    });
    return row ?? null;
  }

  async recordEnd(tenantUuid: string, data: TransactionEndedEvent['data']): Promise<void> {
    await writingNewSession(() =>
      runStatement(this.dataSource, recordChargingSessionEnd, {
        uuid: chargingSessionUuidOf(tenantUuid, data.controllerUuid, data.transactionId),
        tenantUuid,
        controllerUuid: data.controllerUuid,
        transactionId: data.transactionId,
        stoppedAt: data.stoppedAt,
        meterStopWh: data.meterStopWh,
        stopReason: data.reason?.slice(0, 50) ?? null,
      }),
    );
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
      await runStatement(manager, lockPlugAssignment, { plugUuid });
      const ended = await runStatement(manager, supersedeOlderSessions, { uuid: sessionUuid, plugUuid });
      await runStatement(manager, setChargingSessionPlug, { uuid: sessionUuid, plugUuid });
      return ended.length;
    });
  }

  /** The keys (sessionControllerKey) of those of the controllers that have an open session. */
  async controllersWithOpenSessions(controllers: readonly SessionController[]): Promise<Set<string>> {
    const asked = [
      ...new Map(controllers.map((controller) => [sessionControllerKey(controller), controller])).values(),
    ];
    if (asked.length === 0) return new Set();
    const open = await runStatement(this.dataSource, findControllersWithOpenSessions, {
      tenantUuids: asked.map((controller) => controller.tenantUuid),
      controllerUuids: asked.map((controller) => controller.controllerUuid),
    });
    return new Set(open.map(sessionControllerKey));
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

  /**
   * A numbered page (with a count for total_pages and cursors to go on from it), or with `cursor` a page read by
   * keyset from the cursor's key: no count, no OFFSET, so any page costs what the first does.
   */
  async list(tenantUuid: string, request: ListChargingSessionsPayload): Promise<ChargingSessionPage> {
    const { filter } = request;
    const statements = chargingSessionsList(request.orderBy);
    const scope = cursorScope(ChargingSessionSubjects.list, tenantUuid, {
      filter,
      order: statements.page.name,
    });
    const { rows, pagination } = await runPagedList(
      this.dataSource,
      statements,
      {
        tenantUuid,
        controllerUuid: filter.controller_uuid ?? null,
        plugUuid: filter.plug_uuid ?? null,
        status: filter.status ?? null,
        idTag: filter.id_tag ?? null,
        transactionId: filter.ocpp_transaction_id ?? null,
        startedFrom: filter.started_from ?? null,
        startedTo: filter.started_to ?? null,
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

function isoSecondsOrNull(value: Date | null): string | null {
  return value ? isoSeconds(value) : null;
}

/** A numeric column (pg gives numerics as strings) as a number. */
function wh(value: string | null): number | null {
  return value === null ? null : Number(value);
}

function toView(session: ChargingSessionEntity | ListedChargingSessionRow): ChargingSessionView {
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
