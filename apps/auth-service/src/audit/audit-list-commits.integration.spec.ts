import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { AuditEventPage, ListAuditEventsPayload } from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, openSession, type TestDatabase, walkCursorPages } from '@cpc/testing';
import { DataSource } from 'typeorm';
import { cliScope } from '../admin/admin-scope.js';
import { createAuthDataSource } from '../auth-data-source.js';
import { RolesService } from '../roles/roles.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { startAuthDomain } from '../testing/auth-domain-test-context.js';
import { AuditLog } from './audit-log.service.js';

/**
 * A cursor walk over the audit log while an audited change is still being committed: its audit row is stamped, a
 * later change commits first and a page is read. Once the late change commits, a walk from that page in both
 * directions meets every event exactly once.
 */

jest.setTimeout(60_000);

let database: TestDatabase;
let app: INestApplicationContext;
let auditLog: AuditLog;
let roles: RolesService;

beforeAll(async () => {
  database = await createTestDatabase();
  await migrateServiceSchema(createAuthDataSource(database.url));
  app = await startAuthDomain(database.url);
  auditLog = app.get(AuditLog);
  roles = app.get(RolesService);
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

/** An event's target: unique per event here, and known before the late event's own uuid is. */
const targetsOf = (page: AuditEventPage) => page.items.map((item) => item.target.uuid);

// BUG: occurred_at is stamped at the insert, in the audited change's transaction, which goes on after it (revocations,
// the commit), so a page could pass the key of an event still being committed, and a walk from it never met it.
// The service's own changes of a tenant queue on the tenant's row lock, each stamping after the previous one's commit:
// the late change here writes its record as AuditLog.record does, in a transaction of its own without that lock.
it('newest first meets an event whose change commits after the first page was read', async () => {
  const slug = `audit-${randomUUID().slice(0, 8)}`;
  const tenantUuid = (await app.get(TenantsService).create({ slug })).uuid;
  const older = [tenantUuid, (await roles.create(slug, 'first', ['asset'])).uuid];
  const lateTarget = randomUUID();
  const session = await openSession(app.get(DataSource));
  let firstPage: AuditEventPage;
  let newest: string;
  const request = (cursor?: string): ListAuditEventsPayload => ({ page: 1, limit: 2, filter: {}, cursor });
  try {
    await auditLog.record(session.manager, cliScope(tenantUuid), [
      {
        kind: 'role.updated',
        target: { type: 'role', uuid: lateTarget },
        changedFields: ['name'],
        before: null,
        after: null,
      },
    ]);
    newest = (await roles.create(slug, 'second', ['asset'])).uuid;
    firstPage = await auditLog.page(tenantUuid, request());
  } finally {
    await session.commitTransaction();
    await session.release();
  }
  const reader = {
    page: (cursor: string) => auditLog.page(tenantUuid, request(cursor)),
    links: (page: AuditEventPage) => ('cursor' in page.pagination ? page.pagination.cursor : undefined),
    ids: targetsOf,
  };
  const before = await walkCursorPages(firstPage, 'prev', reader);
  const after = await walkCursorPages(firstPage, 'next', reader);
  const walked = [...before.pages.slice(1).reverse().flat(), ...after.pages.flat()];
  const all = targetsOf(await auditLog.page(tenantUuid, { page: 1, limit: 50, filter: {} }));
  expect(all).toEqual([newest, lateTarget, ...[...older].reverse()]);
  expect(walked).toEqual(all);
  // Only the events stamped before the change in flight; its prev cursor leads to those held back.
  expect(targetsOf(firstPage)).toEqual([...older].reverse());
  expect(firstPage.pagination).toMatchObject({ cursor: { prev: expect.any(String) } });
});
