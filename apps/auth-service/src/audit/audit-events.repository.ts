import type { AuditEventKind, AuditEventView } from '@cpc/contracts';
import {
  insertingTransactionMark,
  pagedListStatements,
  sqlStatement,
  visibilityHorizonStatement,
} from '@cpc/database';

/** The statements of auth.audit_events, the audit log of account administration. */

/**
 * Marks the audited change's transaction as inserting audit events, before its records are stamped: the transaction
 * goes on after them (revocations, the commit), so the list's visibility horizon finds it by this mark.
 */
export const AUDIT_INSERTS_MARK = insertingTransactionMark('auth.audit_events');

/** The visibility horizon of the audit log (inserts marked per transaction, AUDIT_INSERTS_MARK). */
export const auditEventsVisibilityHorizon = visibilityHorizonStatement('auth.audit_events', 'transaction');

export interface AuditRow {
  uuid: string;
  occurred_at: Date;
  kind: AuditEventKind;
  actor_type: AuditEventView['actor']['type'];
  actor_uuid: string | null;
  actor_name: string;
  source_address: string | null;
  target_type: AuditEventView['target']['type'];
  target_uuid: string;
  changed_fields: string[];
  before: object | null;
  after: object | null;
}

interface RecordParams {
  uuid: string;
  tenantUuid: string;
  kind: string;
  actorType: string;
  actorUuid: string | null;
  actorName: string;
  sourceAddress: string | null;
  targetType: string;
  targetUuid: string;
  changedFields: string[];
  before: string | null;
  after: string | null;
}

/** One audit event, stamped by PostgreSQL as it is inserted: after its transaction was marked (AUDIT_INSERTS_MARK). */
export const recordAuditEvent = sqlStatement<RecordParams>({
  name: 'audit-events.record',
  parameters: [
    'uuid',
    'tenantUuid',
    'kind',
    'actorType',
    'actorUuid',
    'actorName',
    'sourceAddress',
    'targetType',
    'targetUuid',
    'changedFields',
    'before',
    'after',
  ],
  sql: `INSERT INTO auth.audit_events (uuid, tenant_uuid, occurred_at, kind, actor_type, actor_uuid, actor_name,
          source_address, target_type, target_uuid, changed_fields, before, after)
        VALUES (:uuid, :tenantUuid, clock_timestamp(), :kind, :actorType, :actorUuid, :actorName, :sourceAddress,
          :targetType, :targetUuid, :changedFields::text[], :before::jsonb, :after::jsonb)`,
});

/** The filters of the list: each one null (not asked for) or matched exactly; `to` is exclusive. */
const MATCHING = `WHERE tenant_uuid = :tenantUuid
          AND (:actorUuid::uuid IS NULL OR actor_uuid = :actorUuid::uuid)
          AND (:actorType::text IS NULL OR actor_type = :actorType::text)
          AND (:kind::text IS NULL OR kind = :kind::text)
          AND (:targetUuid::uuid IS NULL OR target_uuid = :targetUuid::uuid)
          AND (:from::timestamptz IS NULL OR occurred_at >= :from::timestamptz)
          AND (:to::timestamptz IS NULL OR occurred_at < :to::timestamptz)`;

export interface AuditListFilter {
  tenantUuid: string;
  actorUuid: string | null;
  actorType: string | null;
  kind: string | null;
  targetUuid: string | null;
  from: string | null;
  to: string | null;
}

/**
 * The audit log, newest first (ties by uuid), by page number or by cursor; a page read towards newer events ends at
 * the visibility horizon, before any event still being committed.
 */
export const auditEventsList = pagedListStatements<AuditListFilter, AuditRow>({
  name: 'audit-events.list',
  select: `uuid, occurred_at, kind, actor_type, actor_uuid, actor_name, source_address, target_type, target_uuid,
          changed_fields, before, after`,
  from: `FROM auth.audit_events
        ${MATCHING}`,
  filterParameters: ['tenantUuid', 'actorUuid', 'actorType', 'kind', 'targetUuid', 'from', 'to'],
  horizon: auditEventsVisibilityHorizon,
  key: [
    { column: 'occurred_at', parameter: 'cursorAt', type: 'timestamptz', order: 'DESC' },
    { column: 'uuid', parameter: 'cursorUuid', type: 'uuid', order: 'ASC' },
  ],
});

/** For the SQL snapshots. */
export const AUDIT_EVENTS_STATEMENTS = [
  AUDIT_INSERTS_MARK,
  recordAuditEvent,
  auditEventsVisibilityHorizon,
  ...auditEventsList.all,
];
