import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { type AuditEventView, ErrorCode, LAST_SUPER_ADMIN_ERROR_KEY } from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { type DomainError } from '@cpc/errors';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { createAuthDataSource } from '../auth-data-source.js';
import { RolesService } from '../roles/roles.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { startAuthDomain } from '../testing/auth-domain-test-context.js';
import { UsersService } from '../users/users.service.js';
import type { AdminScope } from './admin-scope.js';

jest.setTimeout(60_000);

const PASSWORD = 'correct-horse-9';

/** The rules every administrative change follows, on a real PostgreSQL database, as the API and the CLI call them. */
describe('administrative changes', () => {
  let database: TestDatabase;
  let app: INestApplicationContext;
  let users: UsersService;
  let roles: RolesService;
  let auditLog: AuditLog;
  let tenantUuid: string;

  /** An API caller of the tenant holding `grants` (an API key's, so it is no holder of `*` itself). */
  const apiScope = (grants: string[]): AdminScope => ({
    tenantUuid,
    actor: {
      type: 'api_key',
      uuid: '00000000-0000-4000-8000-00000000000a',
      name: 'pk_test',
      address: '192.0.2.1',
    },
    grants,
  });
  const events = async (filter: { target_uuid?: string; kind?: AuditEventView['kind'] } = {}) =>
    (await auditLog.page(tenantUuid, { page: 1, limit: 50, filter })).items;
  const refusal = async (change: Promise<unknown>) => {
    try {
      await change;
    } catch (error) {
      return error as DomainError;
    }
    throw new Error('the change was not refused');
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateServiceSchema(createAuthDataSource(database.url));
    app = await startAuthDomain(database.url);
    users = app.get(UsersService);
    roles = app.get(RolesService);
    auditLog = app.get(AuditLog);
    tenantUuid = (await app.get(TenantsService).create({ slug: 'acme' })).uuid;
    await roles.create('acme', 'root', ['*']);
    await roles.create('acme', 'plain', ['asset']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('keeps the last enabled holder of * when changes race, and writes nothing for the refused one', async () => {
    const holders = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      holders.push(
        await users.createIn(apiScope(['*']), {
          email: `${name}@acme.test`,
          password: PASSWORD,
          role: 'root',
        }),
      );
    }
    const scope = apiScope(['*']);
    const outcomes = await Promise.allSettled([
      users.deleteIn(scope, holders[0].uuid),
      users.updateIn(scope, holders[1].uuid, { disabled: true }),
      users.updateIn(scope, holders[2].uuid, { role: 'plain' }),
      users.deleteIn(scope, holders[3].uuid),
    ]);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(1);
    const reason = refused[0].reason as DomainError;
    expect(reason.code).toBe(ErrorCode.ValidationFailed);
    expect(reason.issues).toEqual([expect.objectContaining({ errorKey: LAST_SUPER_ADMIN_ERROR_KEY })]);
    const survivor = holders[outcomes.indexOf(refused[0])];
    expect(await users.get(tenantUuid, survivor.uuid)).toMatchObject({ role: 'root', disabled: false });
    expect(await events({ target_uuid: survivor.uuid })).toEqual([
      expect.objectContaining({ kind: 'user.created' }),
    ]);

    const root = (await roles.namesOf(tenantUuid)).find((role) => role.name === 'root')!;
    const narrowing = await refusal(roles.updateIn(scope, root.uuid, { permissions: ['asset'] }));
    expect(narrowing.issues?.[0].errorKey).toBe(LAST_SUPER_ADMIN_ERROR_KEY);
    expect((await roles.get(tenantUuid, root.uuid)).permissions).toEqual(['*']);
  });

  it('refuses to hand out, or act on, what the caller does not hold, before anything is written', async () => {
    const staff = apiScope(['admin', 'asset']);
    const before = (await events()).length;
    for (const change of [
      roles.createIn(staff, { name: 'sneaky', permissions: ['asset', 'control:commands'] }),
      users.createIn(staff, { email: 'up@acme.test', password: PASSWORD, role: 'root' }),
      app.get(ApiKeysService).createIn(staff, { role: 'root' }),
    ]) {
      expect((await refusal(change)).code).toBe(ErrorCode.Forbidden);
    }
    const root = (await users.list('acme')).find((user) => user.role === 'root' && !user.disabled)!;
    expect((await refusal(users.updateIn(staff, root.uuid, { password: 'taken-over-9' }))).code).toBe(
      ErrorCode.Forbidden,
    );
    expect((await events()).length).toBe(before);
    expect((await users.list('acme')).map((user) => user.email)).not.toContain('up@acme.test');
  });

  it('records the CLI’s changes with the operator as actor, and never a secret', async () => {
    const created = await users.create({
      tenantSlug: 'acme',
      email: 'cli@acme.test',
      password: PASSWORD,
      roleName: 'plain',
    });
    await users.update('acme', 'cli@acme.test', { password: 'another-password-1', roleName: 'root' });
    const key = await app.get(ApiKeysService).create('acme', 'plain', 'batch');
    const [changed, made] = await events({ target_uuid: created.uuid });
    expect(made).toMatchObject({
      kind: 'user.created',
      actor: { type: 'cli', uuid: null },
      source_address: null,
    });
    expect(changed).toMatchObject({
      kind: 'user.updated',
      changed_fields: ['role', 'password'],
      before: { role: 'plain' },
      after: { role: 'root' },
    });
    const [keyCreated] = await events({ target_uuid: key.uuid });
    expect(keyCreated.after).toMatchObject({ name: 'batch', public_key: key.public_key });
    const stored = JSON.stringify(
      await app.get(DataSource).query(`SELECT before, after FROM auth.audit_events`),
    );
    expect(stored).not.toContain(key.private_key);
    expect(stored).not.toMatch(/hash|another-password|correct-horse/);
  });
});
