import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AuthAdminSubjects,
  type AuditEventKind,
  type AuditEventPage,
  type AuditEventView,
  type ListAuditEventsPayload,
} from '@cpc/contracts';
import { pagedListStatements, runPagedList, runStatement, sqlStatement } from '@cpc/database';
import { ValidationFailedError } from '@cpc/errors';
import { cursorScope } from '@cpc/pagination';
import { DataSource, type EntityManager } from 'typeorm';
import type { AdminScope } from '../admin/admin-scope.js';

/** One change as the audit log keeps it; before and after are views, never secrets. */
export interface AuditEntry {
  kind: AuditEventKind;
  target: AuditEventView['target'];
  changedFields: string[];
  before: object | null;
  after: object | null;
}

interface AuditRow {
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

const RECORD = sqlStatement<RecordParams>({
  name: 'audit_record',
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
  sql: `INSERT INTO auth.audit_events (uuid, tenant_uuid, kind, actor_type, actor_uuid, actor_name, source_address,
          target_type, target_uuid, changed_fields, before, after)
        VALUES (:uuid, :tenantUuid, :kind, :actorType, :actorUuid, :actorName, :sourceAddress, :targetType,
          :targetUuid, :changedFields::text[], :before::jsonb, :after::jsonb)`,
});

/** The filters of the list: each one null (not asked for) or matched exactly; `to` is exclusive. */
const MATCHING = `WHERE tenant_uuid = :tenantUuid
          AND (:actorUuid::uuid IS NULL OR actor_uuid = :actorUuid::uuid)
          AND (:actorType::text IS NULL OR actor_type = :actorType::text)
          AND (:kind::text IS NULL OR kind = :kind::text)
          AND (:targetUuid::uuid IS NULL OR target_uuid = :targetUuid::uuid)
          AND (:from::timestamptz IS NULL OR occurred_at >= :from::timestamptz)
          AND (:to::timestamptz IS NULL OR occurred_at < :to::timestamptz)`;

interface ListFilter {
  tenantUuid: string;
  actorUuid: string | null;
  actorType: string | null;
  kind: string | null;
  targetUuid: string | null;
  from: string | null;
  to: string | null;
}

/** The audit log, newest first (ties by uuid), by page number or by cursor. */
const AUDIT_EVENTS = pagedListStatements<ListFilter, AuditRow>({
  name: 'audit_list',
  select: `uuid, occurred_at, kind, actor_type, actor_uuid, actor_name, source_address, target_type, target_uuid,
          changed_fields, before, after`,
  from: `FROM auth.audit_events
        ${MATCHING}`,
  filterParameters: ['tenantUuid', 'actorUuid', 'actorType', 'kind', 'targetUuid', 'from', 'to'],
  key: [
    { column: 'occurred_at', parameter: 'cursorAt', type: 'timestamptz', order: 'DESC' },
    { column: 'uuid', parameter: 'cursorUuid', type: 'uuid', order: 'ASC' },
  ],
});

/** An instant of the list's time range as PostgreSQL takes it; anything else is 422 on the filter. */
function instant(parameter: 'from' | 'to', value: string | undefined): string | null {
  if (value === undefined) return null;
  const time = new Date(value);
  const year = time.getUTCFullYear();
  if (typeof value !== 'string' || Number.isNaN(year) || year < 1 || year > 9999)
    throw ValidationFailedError.single(
      `filter[${parameter}]`,
      'invalid_format',
      `${parameter} must be an instant`,
    );
  return time.toISOString();
}

const toView = (row: AuditRow): AuditEventView => ({
  uuid: row.uuid,
  occurred_at: row.occurred_at.toISOString(),
  kind: row.kind,
  actor: { type: row.actor_type, uuid: row.actor_uuid, name: row.actor_name },
  source_address: row.source_address,
  target: { type: row.target_type, uuid: row.target_uuid },
  changed_fields: row.changed_fields,
  before: row.before,
  after: row.after,
});

/** The audit log of account administration (API and CLI), in auth-service's schema. */
@Injectable()
export class AuditLog {
  constructor(private readonly dataSource: DataSource) {}

  /** Writes `entries` in the change's own transaction (`manager`): no change without its record, nor the reverse. */
  async record(manager: EntityManager, scope: AdminScope, entries: readonly AuditEntry[]): Promise<void> {
    for (const entry of entries) {
      await runStatement(manager, RECORD, {
        uuid: randomUUID(),
        tenantUuid: scope.tenantUuid,
        kind: entry.kind,
        actorType: scope.actor.type,
        actorUuid: scope.actor.uuid,
        actorName: scope.actor.name,
        sourceAddress: scope.actor.address,
        targetType: entry.target.type,
        targetUuid: entry.target.uuid,
        changedFields: entry.changedFields,
        before: entry.before === null ? null : JSON.stringify(entry.before),
        after: entry.after === null ? null : JSON.stringify(entry.after),
      });
    }
  }

  async page(tenantUuid: string, request: ListAuditEventsPayload): Promise<AuditEventPage> {
    const filter = request.filter ?? {};
    const params = {
      tenantUuid,
      actorUuid: filter.actor_uuid ?? null,
      actorType: filter.actor_type ?? null,
      kind: filter.kind ?? null,
      targetUuid: filter.target_uuid ?? null,
      from: instant('from', filter.from),
      to: instant('to', filter.to),
    };
    const scope = cursorScope(AuthAdminSubjects.listAuditEvents, tenantUuid, filter);
    const { rows, pagination } = await runPagedList(this.dataSource, AUDIT_EVENTS, params, request, scope);
    return { items: rows.map(toView), pagination };
  }
}
