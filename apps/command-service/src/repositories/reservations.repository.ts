import { pagedListStatements, sqlStatement } from '@cpc/database';
import { transactionSessionAt } from './transaction-session-ranges.js';

/**
 * The statements of control.reservations. A reservation is written when its charge point accepts the reserve command
 * (from the command's stored target and parameters), and ended by what the charge point reports; every end is a
 * guarded UPDATE of an `active` row, so redelivered and late events change nothing. An active reservation whose
 * expiry passed reads as `expired` (RESERVATION_COLUMNS), without a job writing it.
 */

export interface ReservationRow {
  uuid: string;
  controller_uuid: string;
  plug_uuid: string | null;
  connector_id: number | null;
  evse_id: number | null;
  reservation_id: number;
  id_tag: string;
  expires_at: Date;
  status: string;
  ended_at: Date | null;
  charging_session_uuid: string | null;
  reserve_command_uuid: string;
  cancel_command_uuid: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Active past its expiry is expired, ended at the expiry. */
const EXPIRED_BY_TIME = `(r.status = 'active' AND r.expires_at <= now())`;

const RESERVATION_COLUMNS = `r.uuid, r.controller_uuid, r.plug_uuid, r.connector_id, r.evse_id, r.reservation_id, r.id_tag,
              r.expires_at, CASE WHEN ${EXPIRED_BY_TIME} THEN 'expired' ELSE r.status END AS status,
              CASE WHEN ${EXPIRED_BY_TIME} THEN r.expires_at ELSE r.ended_at END AS ended_at,
              r.charging_session_uuid, r.reserve_command_uuid, r.cancel_command_uuid, r.created_at, r.updated_at`;

/**
 * The reservation of a reserve command its charge point accepted, with the reservation id the command sent: the one
 * given, else `generatedId` (reservationIdFor). An older active reservation with the same id on the same charge point
 * is replaced, as OCPP replaces it on the charge point; a repeat of the acceptance changes nothing. A use of that id
 * on that charge point heard since the command was created, before this acceptance (useReservation kept it aside),
 * was a use of this reservation: it starts as `used`, linked to that transaction's session. Else an end of that id on
 * that charge point that happened since (endReservation kept it aside) ended it: it starts `expired` or `removed`.
 * Only for a command that ended `accepted`: an acceptance heard after the command failed (its validity ended first)
 * makes no reservation beside the failed command.
 */
export const recordReservation = sqlStatement<{
  uuid: string;
  commandUuid: string;
  generatedId: number;
  acceptedAt: string;
}>({
  name: 'reservations.record',
  parameters: ['uuid', 'commandUuid', 'generatedId', 'acceptedAt'],
  sql: `WITH reserve AS (
         SELECT c.uuid, c.tenant_uuid, c.controller_uuid, c.target_type, c.target_uuid, c.target, c.parameters,
                c.created_at, COALESCE((c.parameters->>'reservation_id')::integer, :generatedId::integer) AS reservation_id
           FROM control.commands c
          WHERE c.uuid = :commandUuid AND c.type = 'reserve' AND c.status = 'accepted'
            AND NOT EXISTS (SELECT 1 FROM control.reservations x WHERE x.reserve_command_uuid = c.uuid)
       ), early AS (
         DELETE FROM control.reservation_early_uses u
          USING reserve
          WHERE u.controller_uuid = reserve.controller_uuid AND u.reservation_id = reserve.reservation_id
            AND u.tenant_uuid = reserve.tenant_uuid AND u.received_at >= reserve.created_at
         RETURNING u.transaction_id, u.used_at, u.received_at
       ), first_use AS (
         SELECT transaction_id, used_at FROM early ORDER BY received_at LIMIT 1
       ), early_end AS (
         DELETE FROM control.reservation_early_ends e
          USING reserve
          WHERE e.controller_uuid = reserve.controller_uuid AND e.reservation_id = reserve.reservation_id
            AND e.tenant_uuid = reserve.tenant_uuid
            -- Event times are whole milliseconds.
            AND e.ended_at >= date_trunc('milliseconds', reserve.created_at)
         RETURNING e.status, e.ended_at
       ), first_end AS (
         SELECT status, ended_at FROM early_end ORDER BY ended_at LIMIT 1
       ), replaced AS (
         UPDATE control.reservations r
            SET status = 'replaced', ended_at = GREATEST(r.created_at, :acceptedAt::timestamptz), updated_at = now()
           FROM reserve
          WHERE r.tenant_uuid = reserve.tenant_uuid AND r.controller_uuid = reserve.controller_uuid
            AND r.reservation_id = reserve.reservation_id AND r.status = 'active'
            AND r.created_at <= :acceptedAt::timestamptz
       )
       INSERT INTO control.reservations
              (uuid, tenant_uuid, controller_uuid, plug_uuid, connector_id, evse_id, reservation_id, id_tag, expires_at,
               status, ended_at, charging_session_uuid, used_by_transaction_id, reserve_command_uuid, created_at)
       SELECT :uuid::uuid, reserve.tenant_uuid, reserve.controller_uuid,
              CASE WHEN reserve.target_type = 'connector' THEN reserve.target_uuid END,
              (reserve.target->>'connectorId')::integer, (reserve.target->>'evseId')::integer, reserve.reservation_id,
              reserve.parameters->>'id_tag', (reserve.parameters->>'expires_at')::timestamptz,
              CASE WHEN first_use.used_at IS NOT NULL THEN 'used' ELSE COALESCE(first_end.status, 'active') END,
              CASE WHEN first_use.used_at IS NOT NULL THEN GREATEST(:acceptedAt::timestamptz, first_use.used_at)
                   WHEN first_end.ended_at IS NOT NULL THEN GREATEST(:acceptedAt::timestamptz, first_end.ended_at) END,
              (${transactionSessionAt(
                'reserve.tenant_uuid',
                'reserve.controller_uuid',
                'first_use.transaction_id',
                'first_use.used_at',
              )}),
              first_use.transaction_id, reserve.uuid, :acceptedAt::timestamptz
         FROM reserve LEFT JOIN first_use ON true LEFT JOIN first_end ON true
       ON CONFLICT (reserve_command_uuid) DO NOTHING`,
});

/**
 * One writer at a time for a charge point's reservation id, until the transaction ends: the acceptance of a reserve
 * command (recordReservation) and a use of its id (useReservation), handled at once by two consumers, each missed what
 * the other had not committed, and the use was lost. Taken in a statement of its own, before the write, so that the
 * write's snapshot sees what the other committed.
 */
export const lockReservationId = sqlStatement<{ controllerUuid: string; reservationId: number }>({
  name: 'reservations.lock-id',
  parameters: ['controllerUuid', 'reservationId'],
  sql: `SELECT pg_advisory_xact_lock(
                 hashtextextended(:controllerUuid::text || '/reservation/' || :reservationId::text, 0))`,
});

/** lockReservationId for the reservation a reserve command makes (see recordReservation for its id). */
export const lockReservationIdOfCommand = sqlStatement<{ commandUuid: string; generatedId: number }>({
  name: 'reservations.lock-id-of-command',
  parameters: ['commandUuid', 'generatedId'],
  sql: `SELECT pg_advisory_xact_lock(hashtextextended(
                  c.controller_uuid::text || '/reservation/'
                    || COALESCE((c.parameters->>'reservation_id')::integer, :generatedId::integer)::text, 0))
          FROM control.commands c
         WHERE c.uuid = :commandUuid AND c.type = 'reserve'`,
});

/**
 * A cancel_reservation its charge point accepted (and that ended `accepted`, not failed first) cancels that charge
 * point's active reservation of that id.
 */
export const cancelReservation = sqlStatement<{ commandUuid: string; cancelledAt: string }, { uuid: string }>(
  {
    name: 'reservations.cancel',
    parameters: ['commandUuid', 'cancelledAt'],
    sql: `UPDATE control.reservations r
          SET status = 'cancelled', cancel_command_uuid = c.uuid,
              ended_at = GREATEST(r.created_at, :cancelledAt::timestamptz), updated_at = now()
         FROM control.commands c
        WHERE c.uuid = :commandUuid AND c.type = 'cancel_reservation' AND c.status = 'accepted'
          AND r.tenant_uuid = c.tenant_uuid AND r.controller_uuid = c.controller_uuid
          AND r.reservation_id = (c.parameters->>'reservation_id')::integer AND r.status = 'active'
       RETURNING r.uuid`,
  },
);

/**
 * The charge point ended its active reservation of that id: `expired` / `removed`, as a 2.0.1 ReservationStatusUpdate
 * says. With none active, the end is kept aside for the reservation it may precede (recordReservation), unless it
 * ended one already or is kept already (a redelivery); kept-aside ends of the charge point older than a day are
 * dropped on the way.
 */
export const endReservation = sqlStatement<
  {
    tenantUuid: string;
    controllerUuid: string;
    reservationId: number;
    status: 'expired' | 'removed';
    endedAt: string;
  },
  { uuid: string }
>({
  name: 'reservations.end',
  parameters: ['tenantUuid', 'controllerUuid', 'reservationId', 'status', 'endedAt'],
  sql: `WITH ended AS (
         UPDATE control.reservations r
            SET status = :status, ended_at = GREATEST(r.created_at, :endedAt::timestamptz), updated_at = now()
          WHERE r.tenant_uuid = :tenantUuid AND r.controller_uuid = :controllerUuid
            AND r.reservation_id = :reservationId AND r.status = 'active'
         RETURNING r.uuid
       ), pruned AS (
         DELETE FROM control.reservation_early_ends
          WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid
            AND received_at < now() - interval '1 day'
       ), kept_aside AS (
         INSERT INTO control.reservation_early_ends (tenant_uuid, controller_uuid, reservation_id, status, ended_at)
         SELECT :tenantUuid, :controllerUuid, :reservationId, :status, :endedAt::timestamptz
          WHERE NOT EXISTS (SELECT 1 FROM ended)
            AND NOT EXISTS (
              SELECT 1 FROM control.reservations r
               WHERE r.controller_uuid = :controllerUuid AND r.reservation_id = :reservationId
                 AND r.tenant_uuid = :tenantUuid AND r.status = :status
                 AND r.ended_at = GREATEST(r.created_at, :endedAt::timestamptz))
            AND NOT EXISTS (
              SELECT 1 FROM control.reservation_early_ends e
               WHERE e.controller_uuid = :controllerUuid AND e.reservation_id = :reservationId
                 AND e.tenant_uuid = :tenantUuid AND e.ended_at = :endedAt::timestamptz)
       )
       SELECT uuid FROM ended`,
});

/**
 * A transaction named this reservation id: the charge point's active reservation of that id is `used`, linked to the
 * transaction's session when it is known (of the sessions of its id, the one whose range holds the time of use). With
 * none active and none this transaction used already (a redelivery), the use is kept aside for the reservation it may
 * precede (recordReservation); kept-aside uses of the charge point older than a day are dropped on the way.
 */
export const useReservation = sqlStatement<
  {
    tenantUuid: string;
    controllerUuid: string;
    reservationId: number;
    usedAt: string;
    transactionId: string;
    /** The uuid the transaction's session has or will have (chargingSessionUuidOf), if its row is not there yet. */
    sessionUuid: string;
  },
  { uuid: string }
>({
  name: 'reservations.use',
  parameters: ['tenantUuid', 'controllerUuid', 'reservationId', 'usedAt', 'transactionId', 'sessionUuid'],
  sql: `WITH used AS (
         UPDATE control.reservations r
            SET status = 'used', ended_at = GREATEST(r.created_at, :usedAt::timestamptz), updated_at = now(),
                used_by_transaction_id = :transactionId::varchar,
                charging_session_uuid = COALESCE(
                  (${transactionSessionAt(
                    'r.tenant_uuid',
                    'r.controller_uuid',
                    ':transactionId::varchar',
                    ':usedAt::timestamptz',
                  )}),
                  :sessionUuid::uuid)
          WHERE r.tenant_uuid = :tenantUuid AND r.controller_uuid = :controllerUuid
            AND r.reservation_id = :reservationId AND r.status = 'active'
         RETURNING r.uuid
       ), pruned AS (
         DELETE FROM control.reservation_early_uses
          WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid
            AND received_at < now() - interval '1 day'
       ), kept_aside AS (
         INSERT INTO control.reservation_early_uses (tenant_uuid, controller_uuid, reservation_id, transaction_id, used_at)
         SELECT :tenantUuid, :controllerUuid, :reservationId, :transactionId::varchar, :usedAt::timestamptz
          WHERE NOT EXISTS (SELECT 1 FROM used)
            AND NOT EXISTS (
              SELECT 1 FROM control.reservations r
               WHERE r.controller_uuid = :controllerUuid AND r.reservation_id = :reservationId
                 AND r.tenant_uuid = :tenantUuid AND r.used_by_transaction_id = :transactionId::varchar)
            AND NOT EXISTS (
              SELECT 1 FROM control.reservation_early_uses u
               WHERE u.controller_uuid = :controllerUuid AND u.reservation_id = :reservationId
                 AND u.tenant_uuid = :tenantUuid AND u.transaction_id = :transactionId::varchar)
       )
       SELECT uuid FROM used`,
});

export const getReservation = sqlStatement<{ tenantUuid: string; uuid: string }, ReservationRow>({
  name: 'reservations.get',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT ${RESERVATION_COLUMNS}
         FROM control.reservations r
        WHERE r.tenant_uuid = :tenantUuid AND r.uuid = :uuid`,
});

/** The list's filters: each one null (not asked for) or matched exactly. */
export interface ReservationListFilter {
  tenantUuid: string;
  controllerUuid: string | null;
  plugUuid: string | null;
  status: string | null;
  idTag: string | null;
  reservationId: number | null;
}

const LISTED_RESERVATIONS = `FROM control.reservations r
        WHERE r.tenant_uuid = :tenantUuid
          AND (:controllerUuid::uuid IS NULL OR r.controller_uuid = :controllerUuid::uuid)
          AND (:plugUuid::uuid IS NULL OR r.plug_uuid = :plugUuid::uuid)
          AND (:status::text IS NULL
               OR (CASE WHEN ${EXPIRED_BY_TIME} THEN 'expired' ELSE r.status END) = :status::text)
          AND (:idTag::text IS NULL OR r.id_tag = :idTag::text)
          AND (:reservationId::integer IS NULL OR r.reservation_id = :reservationId::integer)`;

/**
 * The tenant's reservations newest first (ties by uuid, ascending), by page number or by cursor. The key is the order
 * of reservations_tenant_created_idx, (tenant_uuid, created_at DESC, uuid): a page by cursor starts in that index at
 * its key, so a deep page costs what the first does. The key must stay that index's order.
 */
export const reservationsList = pagedListStatements<ReservationListFilter, ReservationRow>({
  name: 'reservations.list',
  select: RESERVATION_COLUMNS,
  from: LISTED_RESERVATIONS,
  filterParameters: ['tenantUuid', 'controllerUuid', 'plugUuid', 'status', 'idTag', 'reservationId'],
  key: [
    { column: 'r.created_at', parameter: 'cursorCreated', type: 'timestamptz', order: 'DESC' },
    { column: 'r.uuid', parameter: 'cursorUuid', type: 'uuid', order: 'ASC' },
  ],
});

/** For the SQL snapshots. */
export const RESERVATIONS_STATEMENTS = [
  lockReservationId,
  lockReservationIdOfCommand,
  recordReservation,
  cancelReservation,
  endReservation,
  useReservation,
  getReservation,
  ...reservationsList.all,
];
