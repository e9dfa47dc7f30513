import { sqlStatement } from '@cpc/database';

/**
 * The statements of control.charging_sessions. Every write is an upsert on (tenant, controller, transaction id) that
 * fills what it knows and keeps what is known already (see ChargingSessionsService); the API's list and get go
 * through the entity.
 */

/** The part of a session the plug resolution needs. */
export interface SessionPlugState {
  uuid: string;
  plugUuid: string | null;
  connectorId: number | null;
  evseId: number | null;
}

/** What a command targeting a session needs of it. */
export interface SessionTargetRow {
  controller_uuid: string;
  ocpp_transaction_id: string;
  connector_id: number | null;
  evse_id: number | null;
}

/** What a transaction's start says of a session. */
export const recordChargingSessionStart = sqlStatement<
  {
    uuid: string;
    tenantUuid: string;
    controllerUuid: string;
    transactionId: string;
    connectorId: number | null;
    evseId: number | null;
    idTag: string | null;
    startedAt: string;
    meterStartWh: number | null;
  },
  SessionPlugState
>({
  name: 'charging-sessions.record-start',
  parameters: [
    'uuid',
    'tenantUuid',
    'controllerUuid',
    'transactionId',
    'connectorId',
    'evseId',
    'idTag',
    'startedAt',
    'meterStartWh',
  ],
  sql: `INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, connector_id, evse_id, id_tag, started_at, meter_start_wh)
       VALUES (:uuid, :tenantUuid, :controllerUuid, :transactionId, :connectorId, :evseId, :idTag, :startedAt, :meterStartWh)
       ON CONFLICT (tenant_uuid, controller_uuid, ocpp_transaction_id) DO UPDATE SET
         connector_id = COALESCE(s.connector_id, EXCLUDED.connector_id),
         evse_id = COALESCE(s.evse_id, EXCLUDED.evse_id),
         id_tag = COALESCE(s.id_tag, EXCLUDED.id_tag),
         started_at = COALESCE(s.started_at, EXCLUDED.started_at),
         meter_start_wh = COALESCE(s.meter_start_wh, EXCLUDED.meter_start_wh),
         updated_at = now()
       RETURNING uuid, plug_uuid AS "plugUuid", connector_id AS "connectorId", evse_id AS "evseId"`,
});

/** A meter reading; the latest by sample time is kept. */
export const recordChargingSessionMeterValue = sqlStatement<{
  uuid: string;
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
  meterWh: number | null;
  sampledAt: string;
}>({
  name: 'charging-sessions.record-meter-value',
  parameters: ['uuid', 'tenantUuid', 'controllerUuid', 'transactionId', 'meterWh', 'sampledAt'],
  sql: `INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, meter_last_wh, meter_last_at)
       VALUES (:uuid, :tenantUuid, :controllerUuid, :transactionId, :meterWh, :sampledAt)
       ON CONFLICT (tenant_uuid, controller_uuid, ocpp_transaction_id) DO UPDATE SET
         meter_last_wh = EXCLUDED.meter_last_wh,
         meter_last_at = EXCLUDED.meter_last_at,
         updated_at = now()
       WHERE s.meter_last_at IS NULL OR s.meter_last_at <= EXCLUDED.meter_last_at`,
});

/** What a transaction's end says of a session. */
export const recordChargingSessionEnd = sqlStatement<{
  uuid: string;
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
  stoppedAt: string;
  meterStopWh: number | null;
  stopReason: string | null;
}>({
  name: 'charging-sessions.record-end',
  parameters: [
    'uuid',
    'tenantUuid',
    'controllerUuid',
    'transactionId',
    'stoppedAt',
    'meterStopWh',
    'stopReason',
  ],
  sql: `INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, stopped_at, meter_stop_wh, stop_reason)
       VALUES (:uuid, :tenantUuid, :controllerUuid, :transactionId, :stoppedAt, :meterStopWh, :stopReason)
       ON CONFLICT (tenant_uuid, controller_uuid, ocpp_transaction_id) DO UPDATE SET
         stopped_at = COALESCE(s.stopped_at, EXCLUDED.stopped_at),
         meter_stop_wh = COALESCE(s.meter_stop_wh, EXCLUDED.meter_stop_wh),
         stop_reason = COALESCE(s.stop_reason, EXCLUDED.stop_reason),
         updated_at = now()`,
});

/** The session's plug, once resolved (never overwritten). */
export const setChargingSessionPlug = sqlStatement<{ uuid: string; plugUuid: string }>({
  name: 'charging-sessions.set-plug',
  parameters: ['uuid', 'plugUuid'],
  sql: `UPDATE control.charging_sessions SET plug_uuid = :plugUuid, updated_at = now() WHERE uuid = :uuid AND plug_uuid IS NULL`,
});

/** What a command targeting the session needs of it. */
export const findChargingSessionTarget = sqlStatement<{ tenantUuid: string; uuid: string }, SessionTargetRow>(
  {
    name: 'charging-sessions.find-target',
    parameters: ['tenantUuid', 'uuid'],
    sql: `SELECT controller_uuid, ocpp_transaction_id, connector_id, evse_id
         FROM control.charging_sessions WHERE tenant_uuid = :tenantUuid AND uuid = :uuid`,
  },
);

/** For the SQL snapshots. */
export const CHARGING_SESSIONS_STATEMENTS = [
  recordChargingSessionStart,
  recordChargingSessionMeterValue,
  recordChargingSessionEnd,
  setChargingSessionPlug,
  findChargingSessionTarget,
];
