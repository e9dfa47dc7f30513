import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AuthAdminSubjects,
  type AuditEventKind,
  type AuditEventPage,
  type AuditEventView,
  type ListAuditEventsPayload,
} from '@cpc/contracts';
import { markInsertingTransaction, runPagedList, runStatement } from '@cpc/database';
import { ValidationFailedError } from '@cpc/errors';
import { cursorScope } from '@cpc/pagination';
import { DataSource, type EntityManager } from 'typeorm';
import type { AdminScope } from '../admin/admin-scope.js';
import {
  AUDIT_INSERTS_MARK,
  type AuditRow,
  auditEventsList,
  recordAuditEvent,
} from './audit-events.repository.js';

/** One change as the audit log keeps it; before and after are views, never secrets. */
export interface AuditEntry {
  kind: AuditEventKind;
  target: AuditEventView['target'];
  changedFields: string[];
  before: object | null;
  after: object | null;
}

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

  /**
   * Writes `entries` in the change's own transaction (`manager`): no change without its record, nor the reverse. It
   * marks the transaction first, for the list's visibility horizon.
   */
  async record(manager: EntityManager, scope: AdminScope, entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // The transaction goes on after the records: marked, the list holds its pages back until it has ended.
    await markInsertingTransaction(manager, AUDIT_INSERTS_MARK);
    for (const entry of entries) {
      await runStatement(manager, recordAuditEvent, {
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
    const { rows, pagination } = await runPagedList(this.dataSource, auditEventsList, params, request, scope);
    return { items: rows.map(toView), pagination };
  }
}
