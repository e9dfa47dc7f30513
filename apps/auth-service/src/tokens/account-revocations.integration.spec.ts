import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import type { AccountsRevokedEvent } from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { ValidationFailedError } from '@cpc/errors';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import jwt from 'jsonwebtoken';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { createAuthDataSource } from '../auth-data-source.js';
import { InvalidCredentialsError } from '../credentials/account-authenticator.service.js';
import { RolesService } from '../roles/roles.service.js';
import { SigningKeysService } from '../signing-keys/signing-keys.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { startAuthDomain } from '../testing/auth-domain-test-context.js';
import { UsersService } from '../users/users.service.js';
import { AccountRevocationPublisher } from './account-revocation-publisher.js';
import { AccountRevocationsService } from './account-revocations.service.js';
import { TokenGrantsService } from './token-grants.service.js';

jest.setTimeout(60_000);

const PASSWORD = 'correct-horse-9';
/** Token requests name the client's address; the limits count by it. */
const CLIENT_ADDRESS = '127.0.0.2';

/** The service methods behind the admin CLI's changes, on a real PostgreSQL database. */
describe('AccountRevocationsService', () => {
  let database: TestDatabase;
  let app: INestApplicationContext;
  let users: UsersService;
  let grants: TokenGrantsService;
  let revocations: AccountRevocationsService;
  const announced: AccountsRevokedEvent[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateServiceSchema(createAuthDataSource(database.url));
    app = await startAuthDomain(database.url, {
      revocationPublisher: {
        provide: AccountRevocationPublisher,
        useValue: {
          publish: (event: AccountsRevokedEvent) => Promise.resolve(void announced.push(event)),
        },
      },
    });
    users = app.get(UsersService);
    grants = app.get(TokenGrantsService);
    revocations = app.get(AccountRevocationsService);
    await app.get(SigningKeysService).ensureActiveKey();
    await app.get(TenantsService).create({ slug: 'acme' });
    await app.get(RolesService).create('acme', 'operator', ['asset']);
    for (const email of ['ops@acme.test', 'enabled@acme.test', 'twice@acme.test']) {
      await users.create({ tenantSlug: 'acme', email, password: PASSWORD, roleName: 'operator' });
    }
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const logIn = (email: string, password = PASSWORD) =>
    grants.passwordGrant({ tenant: 'acme', username: email, password, clientAddress: CLIENT_ADDRESS });

  it('a password change revokes every refresh-token family and dates the access tokens', async () => {
    const first = await logIn('ops@acme.test');
    const second = await logIn('ops@acme.test');
    const user = await users.update('acme', 'ops@acme.test', { password: 'battery-staple-10' });

    for (const pair of [first, second]) {
      await expect(
        grants.refreshGrant({ refreshToken: pair.refresh_token, clientAddress: CLIENT_ADDRESS }),
      ).rejects.toThrow(InvalidCredentialsError);
    }
    const notBefore = await revocations.notBeforeOf(user.uuid);
    expect(announced).toContainEqual({ revocations: [{ subject: user.uuid, notBefore }] });
    expect((jwt.decode(first.access_token) as jwt.JwtPayload).iat).toBeLessThan(notBefore);
    // Issued after the change: at least the not-before time, even within the same second.
    const after = await logIn('ops@acme.test', 'battery-staple-10');
    expect((jwt.decode(after.access_token) as jwt.JwtPayload).iat).toBeGreaterThanOrEqual(notBefore);
    expect(
      await grants.refreshGrant({ refreshToken: after.refresh_token, clientAddress: CLIENT_ADDRESS }),
    ).toMatchObject({ token_type: 'Bearer' });
  });

  it('a token issued between two changes of one second is refused by the second', async () => {
    // Start early in a second, so that both changes and the log-in between them fall in it.
    while (Date.now() % 1000 > 200) await new Promise((resolve) => setTimeout(resolve, 10));
    const user = await users.update('acme', 'twice@acme.test', { password: 'battery-staple-10' });
    const firstNotBefore = await revocations.notBeforeOf(user.uuid);
    const between = await logIn('twice@acme.test', 'battery-staple-10');
    await users.update('acme', 'twice@acme.test', { password: 'battery-staple-11' });

    const notBefore = await revocations.notBeforeOf(user.uuid);
    expect(notBefore).toBeGreaterThan(firstNotBefore);
    expect((jwt.decode(between.access_token) as jwt.JwtPayload).iat).toBeLessThan(notBefore);
    const after = await logIn('twice@acme.test', 'battery-staple-11');
    expect((jwt.decode(after.access_token) as jwt.JwtPayload).iat).toBeGreaterThanOrEqual(notBefore);
  });

  it('an enable revokes nothing, and the refresh token of before the disable stays refused', async () => {
    const pair = await logIn('enabled@acme.test');
    await users.update('acme', 'enabled@acme.test', { disabled: true });
    const count = announced.length;
    await users.update('acme', 'enabled@acme.test', { disabled: false });
    expect(announced).toHaveLength(count);
    await expect(
      grants.refreshGrant({ refreshToken: pair.refresh_token, clientAddress: CLIENT_ADDRESS }),
    ).rejects.toThrow(InvalidCredentialsError);
  });

  it('a revoked API key’s refresh token is refused', async () => {
    const key = await app.get(ApiKeysService).create('acme', 'operator');
    const pair = await grants.passwordGrant({
      tenant: 'acme',
      username: key.public_key,
      password: key.private_key,
      context: 'apikey',
      clientAddress: CLIENT_ADDRESS,
    });
    await app.get(ApiKeysService).update('acme', key.public_key, { revoked: true });
    await expect(
      grants.refreshGrant({ refreshToken: pair.refresh_token, clientAddress: CLIENT_ADDRESS }),
    ).rejects.toThrow(InvalidCredentialsError);
    expect(await revocations.notBeforeOf(key.uuid)).toBeGreaterThan(0);
  });

  it('a disabled tenant revokes every account of it, users and API keys', async () => {
    const tenants = app.get(TenantsService);
    await tenants.create({ slug: 'closing' });
    await app.get(RolesService).create('closing', 'operator', ['asset']);
    const user = await users.create({
      tenantSlug: 'closing',
      email: 'staff@closing.test',
      password: PASSWORD,
      roleName: 'operator',
    });
    const key = await app.get(ApiKeysService).create('closing', 'operator');
    const pair = await grants.passwordGrant({
      tenant: 'closing',
      username: 'staff@closing.test',
      password: PASSWORD,
      clientAddress: CLIENT_ADDRESS,
    });
    announced.length = 0;
    await tenants.setDisabled('closing', true);
    expect(await revocations.notBeforeOf(user.uuid)).toBeGreaterThan(0);
    expect(await revocations.notBeforeOf(key.uuid)).toBeGreaterThan(0);
    // Exactly its own accounts: another tenant's keep their tokens.
    expect(
      announced.flatMap((event) => event.revocations.map((revocation) => revocation.subject)).sort(),
    ).toEqual([user.uuid, key.uuid].sort());
    await tenants.setDisabled('closing', false);
    await expect(
      grants.refreshGrant({ refreshToken: pair.refresh_token, clientAddress: CLIENT_ADDRESS }),
    ).rejects.toThrow(InvalidCredentialsError);
  });

  it('answers the revocations changed since a time in pages of 1,000', async () => {
    const tenantUuid = (await app.get(TenantsService).getBySlug('acme')).uuid;
    const subjects = Array.from({ length: 1001 }, () => randomUUID());
    await revocations.changeAndRevoke(tenantUuid, () => Promise.resolve(), subjects);

    const since = new Date(Date.now() - 60_000).toISOString();
    const first = await revocations.page({ changedSince: since, afterSequence: 0 });
    expect(first.more).toBe(true);
    const second = await revocations.page({ changedSince: since, afterSequence: first.lastSequence });
    expect(second.more).toBe(false);
    const answered = [...first.revocations, ...second.revocations].map((revocation) => revocation.subject);
    expect(answered).toEqual(expect.arrayContaining(subjects));
    expect(new Set(answered).size).toBe(answered.length);

    const later = new Date(Date.parse(second.asOf) + 1000).toISOString();
    expect((await revocations.page({ changedSince: later, afterSequence: 0 })).revocations).toEqual([]);
    await expect(revocations.page({ changedSince: 'yesterday', afterSequence: 0 })).rejects.toThrow(
      ValidationFailedError,
    );
    await expect(revocations.page({ changedSince: null, afterSequence: -1 })).rejects.toThrow(
      ValidationFailedError,
    );
  });
});
