import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import {
  type AdminRequest,
  type AuditEventView,
  ErrorCode,
  LAST_SUPER_ADMIN_ERROR_KEY,
  type UpdateUserPayload,
} from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { type DomainError, NotFoundError } from '@cpc/errors';
import { createTestDatabase, lockWaiters, openSession, outcome, type TestDatabase } from '@cpc/testing';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { createAuthDataSource } from '../auth-data-source.js';
import { loadAuthServiceConfig } from '../auth-service.config.js';
import { InvalidCredentialsError } from '../credentials/account-authenticator.service.js';
import { SecretHasher } from '../credentials/secret-hasher.js';
import { RolesService } from '../roles/roles.service.js';
import { SigningKeysService } from '../signing-keys/signing-keys.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { startAuthDomain } from '../testing/auth-domain-test-context.js';
import { TokenGrantsService } from '../tokens/token-grants.service.js';
import { UsersService } from '../users/users.service.js';
import { AdminChanges } from './admin-changes.service.js';
import type { AdminScope } from './admin-scope.js';

jest.setTimeout(60_000);

const PASSWORD = 'correct-horse-9';

/**
 * A tenant's administration under concurrency, on a real PostgreSQL database: races forced by a second session's
 * locks (the changes wait, the spec sees them wait, then lets go), tenancy of every change, the audit log.
 */
describe('tenant administration under concurrency', () => {
  let database: TestDatabase;
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let tenants: TenantsService;
  let users: UsersService;
  let roles: RolesService;
  let apiKeys: ApiKeysService;
  let auditLog: AuditLog;
  let admin: AdminChanges;
  let tenantCount = 0;

  /** A fresh tenant with roles `root` (`*`) and `plain` (`asset`). */
  const newTenant = async () => {
    const slug = `tenant-${++tenantCount}`;
    const { uuid } = await tenants.create({ slug });
    await roles.create(slug, 'root', ['*']);
    await roles.create(slug, 'plain', ['asset']);
    return { slug, uuid };
  };
  /** An API key's scope in the tenant (an API key is no holder of `*` itself). */
  const keyScope = (tenantUuid: string, grants: string[]): AdminScope => ({
    tenantUuid,
    actor: { type: 'api_key', uuid: randomUUID(), name: 'pk_test', address: '192.0.2.1' },
    grants,
  });
  const newUser = (slug: string, email: string, roleName: string) =>
    users.create({ tenantSlug: slug, email, password: PASSWORD, roleName });
  const events = async (tenantUuid: string, filter: ListFilter = {}) =>
    (await auditLog.page(tenantUuid, { page: 1, limit: 50, filter })).items;
  type ListFilter = { target_uuid?: string; kind?: AuditEventView['kind'] };
  const roleUuid = async (tenantUuid: string, name: string) =>
    (await roles.namesOf(tenantUuid)).find((role) => role.name === name)!.uuid;

  /** Holds the tenant's change lock from a second session while `changes` queue on it, in this order. */
  async function queuedOnTenant<T extends unknown[]>(
    tenantUuid: string,
    changes: { [K in keyof T]: () => Promise<T[K]> },
  ): Promise<{ [K in keyof T]: { value?: T[K]; error?: unknown } }> {
    const session = await openSession(dataSource);
    const settled: Promise<unknown>[] = [];
    try {
      await session.query(`SELECT uuid FROM auth.tenants WHERE uuid = $1 FOR NO KEY UPDATE`, [tenantUuid]);
      for (const change of changes) {
        settled.push(outcome(change()));
        await lockWaiters(dataSource, settled.length);
      }
    } finally {
      await session.rollbackTransaction();
      await session.release();
    }
    return (await Promise.all(settled)) as { [K in keyof T]: { value?: T[K]; error?: unknown } };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateServiceSchema(createAuthDataSource(database.url));
    app = await startAuthDomain(database.url);
    dataSource = app.get(DataSource);
    tenants = app.get(TenantsService);
    users = app.get(UsersService);
    roles = app.get(RolesService);
    apiKeys = app.get(ApiKeysService);
    auditLog = app.get(AuditLog);
    admin = app.get(AdminChanges);
    await app.get(SigningKeysService).ensureActiveKey();
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('answers two queued creates of one e-mail with one user and one 422 already_exists', async () => {
    const { uuid } = await newTenant();
    const scope = keyScope(uuid, ['*']);
    const create = () =>
      users.createIn(scope, { email: 'Twin@acme.test', password: PASSWORD, role: 'plain' });
    const [first, second] = await queuedOnTenant<[unknown, unknown]>(uuid, [create, create]);

    expect(first.error).toBeUndefined();
    expect((second.error as DomainError).code).toBe(ErrorCode.ValidationFailed);
    expect((second.error as DomainError).issues).toEqual([
      expect.objectContaining({ parameter: 'email', errorKey: 'already_exists' }),
    ]);
    expect(await events(uuid, { kind: 'user.created' })).toHaveLength(1);
  });

  it('keeps a holder of * when a demotion races a role losing *, refusing the second with 422', async () => {
    const { slug, uuid } = await newTenant();
    await roles.create(slug, 'root-too', ['*']);
    const first = await newUser(slug, 'first@acme.test', 'root');
    await newUser(slug, 'second@acme.test', 'root-too');
    const rootToo = await roleUuid(uuid, 'root-too');
    const scope = keyScope(uuid, ['*']);
    const before = (await events(uuid)).length;

    const [demotion, narrowing] = await queuedOnTenant<[unknown, unknown]>(uuid, [
      () => users.updateIn(scope, first.uuid, { role: 'plain' }),
      () => roles.updateIn(scope, rootToo, { permissions: ['asset'] }),
    ]);

    expect(demotion.error).toBeUndefined();
    expect((narrowing.error as DomainError).issues).toEqual([
      expect.objectContaining({ errorKey: LAST_SUPER_ADMIN_ERROR_KEY }),
    ]);
    expect((await roles.get(uuid, rootToo)).permissions).toEqual(['*']);
    expect((await events(uuid)).length).toBe(before + 1);
  });

  it('keeps a holder of * when a disable races a deletion of the other holder', async () => {
    const { slug, uuid } = await newTenant();
    const first = await newUser(slug, 'first@acme.test', 'root');
    const second = await newUser(slug, 'second@acme.test', 'root');
    const scope = keyScope(uuid, ['*']);

    const [disable, deletion] = await queuedOnTenant<[unknown, unknown]>(uuid, [
      () => users.updateIn(scope, first.uuid, { disabled: true }),
      () => users.deleteIn(scope, second.uuid),
    ]);

    expect(disable.error).toBeUndefined();
    expect((deletion.error as DomainError).issues).toEqual([
      expect.objectContaining({ errorKey: LAST_SUPER_ADMIN_ERROR_KEY }),
    ]);
    expect(await users.get(uuid, second.uuid)).toMatchObject({ role: 'root', disabled: false });
    expect(await events(uuid, { target_uuid: second.uuid })).toEqual([
      expect.objectContaining({ kind: 'user.created' }),
    ]);
  });

  it('checks a role given to a user as it is once an earlier widening of it committed (403)', async () => {
    const { slug, uuid } = await newTenant();
    await roles.create(slug, 'ops', ['asset']);
    const user = await newUser(slug, 'ops@acme.test', 'plain');
    const staff = keyScope(uuid, ['admin', 'asset']);

    const [widening, assignment] = await queuedOnTenant<[unknown, unknown]>(uuid, [
      () => roles.setPermissions(slug, 'ops', ['asset', 'control']),
      () => users.updateIn(staff, user.uuid, { role: 'ops' }),
    ]);

    expect(widening.error).toBeUndefined();
    expect((assignment.error as DomainError).code).toBe(ErrorCode.Forbidden);
    expect(await users.get(uuid, user.uuid)).toMatchObject({ role: 'plain' });
    expect(await events(uuid, { target_uuid: user.uuid })).toHaveLength(1);
  });

  it('answers 404 to a role given after its deletion committed, and writes no event for it', async () => {
    const { slug, uuid } = await newTenant();
    await roles.create(slug, 'short-lived', ['asset']);
    const user = await newUser(slug, 'moved@acme.test', 'plain');
    const shortLived = await roleUuid(uuid, 'short-lived');
    const scope = keyScope(uuid, ['*']);

    const [deletion, assignment] = await queuedOnTenant<[unknown, unknown]>(uuid, [
      () => roles.deleteIn(scope, shortLived),
      () => users.updateIn(scope, user.uuid, { role: 'short-lived' }),
    ]);

    expect(deletion.error).toBeUndefined();
    expect(assignment.error).toBeInstanceOf(NotFoundError);
    expect(await users.get(uuid, user.uuid)).toMatchObject({ role: 'plain' });
    expect(await events(uuid, { target_uuid: user.uuid })).toHaveLength(1);
  });

  it('answers 404 for another tenant’s user, role and key, and changes and records nothing', async () => {
    const own = await newTenant();
    const other = await newTenant();
    await roles.create(other.slug, 'only-there', ['asset']);
    const user = await newUser(other.slug, 'theirs@other.test', 'plain');
    const key = await apiKeys.create(other.slug, 'plain', 'theirs');
    const role = await roleUuid(other.uuid, 'only-there');
    const scope = keyScope(own.uuid, ['*']);
    const ownEvents = (await events(own.uuid)).length;
    const otherEvents = (await events(other.uuid)).length;

    const changes: (() => Promise<unknown>)[] = [
      () => users.updateIn(scope, user.uuid, { disabled: true }),
      () => users.deleteIn(scope, user.uuid),
      () => users.get(own.uuid, user.uuid),
      () => roles.updateIn(scope, role, { name: 'renamed' }),
      () => roles.deleteIn(scope, role),
      () => apiKeys.updateIn(scope, key.uuid, { name: 'renamed' }),
      () => apiKeys.revokeIn(scope, key.uuid),
      () => users.createIn(scope, { email: 'new@acme.test', password: PASSWORD, role: 'only-there' }),
      () => apiKeys.createIn(scope, { role: 'only-there' }),
    ];
    for (const change of changes) {
      expect((await outcome(change())).error).toBeInstanceOf(NotFoundError);
    }
    expect(await users.get(other.uuid, user.uuid)).toMatchObject({ disabled: false });
    expect(await apiKeys.get(other.uuid, key.uuid)).toMatchObject({ name: 'theirs', revoked: false });
    expect(await roles.get(other.uuid, role)).toMatchObject({ name: 'only-there' });
    expect((await events(own.uuid)).length).toBe(ownEvents);
    expect((await events(other.uuid)).length).toBe(otherEvents);
  });

  it('shows an API key’s private key in the answer to its creation only', async () => {
    const { slug, uuid } = await newTenant();
    const created = await apiKeys.createIn(keyScope(uuid, ['*']), { role: 'plain', name: 'batch' });
    expect(created.private_key).toMatch(/^sk_/);
    const shown = JSON.stringify([
      await apiKeys.get(uuid, created.uuid),
      await apiKeys.page(uuid, { page: 1, limit: 50, orderBy: [], filter: {} }),
      await apiKeys.list(slug),
      await events(uuid, { target_uuid: created.uuid }),
    ]);
    expect(shown).toContain(created.public_key);
    expect(shown).not.toContain(created.private_key);
    expect(await apiKeys.get(uuid, created.uuid)).not.toHaveProperty('private_key');
  });

  // The credentials are checked before the pair is issued, in another transaction: the issuing one locks the account
  // again, so a revocation under way meanwhile ends the login instead of outliving it (a live refresh token and an
  // access token whose iat is the new not_before, which api-gateway accepts).
  it('gives no token to an API key revoked while its login was under way', async () => {
    const { slug, uuid } = await newTenant();
    const key = await apiKeys.create(slug, 'plain', 'leaked');
    // An older cost makes the login rehash, i.e. write the key's row, where it waits for the revocation's lock.
    const older = await new SecretHasher(
      loadAuthServiceConfig({ DATABASE_URL: database.url, SCRYPT_COST_LOG2: '10' }),
    ).hash(key.private_key);
    await dataSource.query(`UPDATE auth.api_keys SET secret_hash = $1 WHERE uuid = $2`, [older, key.uuid]);

    const session = await openSession(dataSource);
    let revoking: Promise<{ error?: unknown }>;
    let login: Promise<{ error?: unknown }>;
    try {
      // An uncommitted revocation row of the key: the revocation waits on it, holding the key's row.
      await session.query(
        `INSERT INTO auth.account_revocations (account_uuid, tenant_uuid, not_before) VALUES ($1, $2, 0)`,
        [key.uuid, uuid],
      );
      revoking = outcome(apiKeys.revokeIn(keyScope(uuid, ['*']), key.uuid));
      await lockWaiters(dataSource, 1);
      login = outcome(
        app.get(TokenGrantsService).passwordGrant({
          tenant: slug,
          username: key.public_key,
          password: key.private_key,
          context: 'apikey',
          clientAddress: '198.51.100.7',
        }),
      );
      await lockWaiters(dataSource, 2);
    } finally {
      await session.rollbackTransaction();
      await session.release();
    }

    expect((await revoking).error).toBeUndefined();
    expect((await login).error).toBeInstanceOf(InvalidCredentialsError);
    const live = await dataSource.query<unknown[]>(
      `SELECT 1 FROM auth.refresh_tokens WHERE account_uuid = $1 AND revoked_at IS NULL`,
      [key.uuid],
    );
    expect(live).toHaveLength(0);
  });

  /** An admin API request of `subject`, with the grants its (still valid) token carried. */
  const requestOf = <T>(
    tenant: { slug: string; uuid: string },
    subject: string,
    subjectType: 'user' | 'apikey',
    payload: T,
  ): AdminRequest<T> => ({
    principal: { tenantUuid: tenant.uuid, tenantSlug: tenant.slug, subject, subjectType, scopes: ['*'] },
    clientAddress: '192.0.2.9',
    payload,
  });

  // The acting account is checked again behind the tenant's lock: a user disabled by a change committed meanwhile does
  // not act any more (here: would enable itself again) with its token's grants.
  it('refuses a request of a user disabled while the request waited, which stays disabled', async () => {
    const tenant = await newTenant();
    const rogue = await newUser(tenant.slug, 'rogue@acme.test', 'root');
    const keeper = await newUser(tenant.slug, 'keeper@acme.test', 'root');
    const keeperScope: AdminScope = {
      tenantUuid: tenant.uuid,
      actor: { type: 'user', uuid: keeper.uuid, name: keeper.email, address: '192.0.2.8' },
      grants: ['*'],
    };
    const request = requestOf<UpdateUserPayload>(tenant, rogue.uuid, 'user', {
      uuid: rogue.uuid,
      changes: { disabled: false },
    });

    const session = await openSession(dataSource);
    let disabling: Promise<{ error?: unknown }>;
    let reenabling: Promise<{ error?: unknown }>;
    try {
      // The disable takes the tenant's lock, then waits for the rogue's row.
      await session.query(`SELECT 1 FROM auth.users WHERE uuid = $1 FOR SHARE`, [rogue.uuid]);
      disabling = outcome(users.updateIn(keeperScope, rogue.uuid, { disabled: true }));
      await lockWaiters(dataSource, 1);
      reenabling = outcome(
        admin
          .apiScope(request)
          .then((scope) => users.updateIn(scope, request.payload.uuid, request.payload.changes)),
      );
      await lockWaiters(dataSource, 2);
    } finally {
      await session.rollbackTransaction();
      await session.release();
    }

    expect((await disabling).error).toBeUndefined();
    expect((await reenabling).error).toBeDefined();
    expect(await users.get(tenant.uuid, rogue.uuid)).toMatchObject({ disabled: true });
  });

  // A revoked key's request in flight (its revocation not at api-gateway yet) changes nothing.
  it('refuses an admin request of a revoked API key', async () => {
    const tenant = await newTenant();
    const key = await apiKeys.create(tenant.slug, 'root', 'leaked');
    await apiKeys.update(tenant.slug, key.public_key, { revoked: true });

    const attempt = await outcome(
      admin
        .apiScope(requestOf(tenant, key.uuid, 'apikey', {}))
        .then((scope) => roles.createIn(scope, { name: 'backdoor', permissions: ['*'] })),
    );

    expect(attempt.error).toBeDefined();
    expect((await roles.namesOf(tenant.uuid)).map((role) => role.name)).not.toContain('backdoor');
  });

  it('records a change of the tenant’s authorization mode in the audit log', async () => {
    const { slug, uuid } = await newTenant();
    await tenants.setAuthorizationMode(slug, 'accept_unknown');
    expect(await events(uuid, { kind: 'tenant.updated', target_uuid: uuid })).toEqual([
      expect.objectContaining({
        changed_fields: ['authorization_mode'],
        before: expect.objectContaining({ authorization_mode: 'strict' }),
        after: expect.objectContaining({ authorization_mode: 'accept_unknown' }),
      }),
    ]);
  });
});
