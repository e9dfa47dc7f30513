import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { migrateServiceSchema } from '@cpc/database';
import { ErrorCode } from '@cpc/contracts';
import type { DomainError } from '@cpc/errors';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { createAuthDataSource } from '../auth-data-source.js';
import { loadAuthServiceConfig } from '../auth-service.config.js';
import { RolesService } from '../roles/roles.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { startAuthDomain } from '../testing/auth-domain-test-context.js';
import { UsersService } from '../users/users.service.js';
import {
  AccountAuthenticator,
  InvalidCredentialsError,
  type LoginAttempt,
} from './account-authenticator.service.js';
import { HashingAtCapacityError, SecretHasher } from './secret-hasher.js';
import { TokenLimits } from './token-limits.js';

jest.setTimeout(60_000);

const PASSWORD = 'correct-horse-9';

/** The cost part of a stored hash (`scrypt$N$r$p$salt$hash`): what one verification against it costs. */
const costOf = (stored: string) => stored.split('$').slice(0, 4).join('$');

/** The auth domain (no transport) on `databaseUrl`, with the given settings on top of a test's low scrypt cost. */
const startCredentials = (databaseUrl: string, env: NodeJS.ProcessEnv = {}) =>
  startAuthDomain(databaseUrl, { env });

/**
 * Whether a login attempt fails for an unknown account or a wrong password must not show in the work it takes: each
 * runs exactly one scrypt verification, with the same cost parameters. Counted, not timed. Also: the normalized
 * lookup, the rehash of older hashes, and the failure counters' give-back and sweep (their limits across addresses
 * and replicas: platform-e2e oauth-token-limits).
 */
describe('AccountAuthenticator', () => {
  let database: TestDatabase;
  let app: INestApplicationContext;
  let authenticator: AccountAuthenticator;
  let hasher: SecretHasher;
  let tenantUuid: string;
  let userHash: string;
  let apiKey: { public_key: string; private_key: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateServiceSchema(createAuthDataSource(database.url));
    app = await startCredentials(database.url);
    authenticator = app.get(AccountAuthenticator);
    hasher = app.get(SecretHasher);
    tenantUuid = (await app.get(TenantsService).create({ slug: 'acme' })).uuid;
    await app.get(RolesService).create('acme', 'operator', ['asset']);
    const users = app.get(UsersService);
    await users.create({
      tenantSlug: 'acme',
      email: 'ops@acme.test',
      password: PASSWORD,
      roleName: 'operator',
    });
    await users.create({
      tenantSlug: 'acme',
      email: 'gone@acme.test',
      password: PASSWORD,
      roleName: 'operator',
    });
    await users.update('acme', 'gone@acme.test', { disabled: true });
    userHash = (await users.findForLogin(tenantUuid, 'ops@acme.test'))!.passwordHash;
    apiKey = await app.get(ApiKeysService).create('acme', 'operator');
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  afterEach(() => jest.restoreAllMocks());

  /** Runs one attempt and answers which stored hashes it verified against and whether it got in. */
  async function attempt(
    request: Omit<LoginAttempt, 'clientAddress'>,
  ): Promise<{ verifiedAgainst: string[]; outcome: 'accepted' | 'invalid credentials' }> {
    const verify = jest.spyOn(hasher, 'verify').mockClear();
    const hash = jest.spyOn(hasher, 'hash').mockClear();
    try {
      await authenticator.authenticate({ ...request, clientAddress: '127.0.0.2' });
      return { verifiedAgainst: verify.mock.calls.map(([, stored]) => stored), outcome: 'accepted' };
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidCredentialsError);
      return {
        verifiedAgainst: verify.mock.calls.map(([, stored]) => stored),
        outcome: 'invalid credentials',
      };
    } finally {
      // Nothing is hashed on the way: the decoy was made when the hasher was.
      expect(hash).not.toHaveBeenCalled();
    }
  }

  it('verifies the password once against the account hash when the account exists', async () => {
    expect(await attempt({ tenant: 'acme', username: 'ops@acme.test', password: PASSWORD })).toEqual({
      verifiedAgainst: [userHash],
      outcome: 'accepted',
    });
    expect(await attempt({ tenant: 'acme', username: 'ops@acme.test', password: 'wrong-password' })).toEqual({
      verifiedAgainst: [userHash],
      outcome: 'invalid credentials',
    });
  });

  it.each([
    ['unknown user', { tenant: 'acme', username: 'nobody@acme.test', password: PASSWORD }],
    ['unknown tenant', { tenant: 'nowhere', username: 'ops@acme.test', password: PASSWORD }],
    [
      'unknown API key',
      { tenant: 'acme', username: 'pk_unknown', password: PASSWORD, context: 'apikey' as const },
    ],
  ])('runs one verification of the same cost against the decoy for an %s', async (_case, request) => {
    const { verifiedAgainst, outcome } = await attempt(request);
    expect(outcome).toBe('invalid credentials');
    expect(verifiedAgainst).toHaveLength(1);
    expect(verifiedAgainst[0]).not.toBe(userHash);
    expect(costOf(verifiedAgainst[0])).toBe(costOf(userHash));
    expect(costOf(userHash)).toBe('scrypt$4096$8$1');
  });

  it('uses the same decoy every time, so no attempt pays for making one', async () => {
    const first = await attempt({ tenant: 'acme', username: 'nobody@acme.test', password: PASSWORD });
    const second = await attempt({
      tenant: 'nowhere',
      username: 'someone@else.test',
      password: 'other-pass',
    });
    expect(second.verifiedAgainst).toEqual(first.verifiedAgainst);
  });

  it.each([
    ['disabled user', { tenant: 'acme', username: 'gone@acme.test', password: PASSWORD }],
    [
      'context not the account type',
      { tenant: 'acme', username: 'ops@acme.test', password: PASSWORD, context: 'employer' as const },
    ],
  ])('refuses a %s after one verification, like a wrong password', async (_case, request) => {
    const { verifiedAgainst, outcome } = await attempt(request);
    expect(outcome).toBe('invalid credentials');
    expect(verifiedAgainst).toHaveLength(1);
    expect(costOf(verifiedAgainst[0])).toBe(costOf(userHash));
  });

  it('verifies API keys the same way', async () => {
    const wrong = await attempt({
      tenant: 'acme',
      username: apiKey.public_key,
      password: 'sk_wrong-secret',
      context: 'apikey',
    });
    expect(wrong.outcome).toBe('invalid credentials');
    expect(wrong.verifiedAgainst).toHaveLength(1);
    expect(costOf(wrong.verifiedAgainst[0])).toBe(costOf(userHash));
  });

  describe('rehash on login', () => {
    /** A hash of `password` made as an older release made them (N=2^10), stored in place of the account's. */
    const olderHash = (password: string) =>
      new SecretHasher(loadAuthServiceConfig({ DATABASE_URL: database.url, SCRYPT_COST_LOG2: '10' })).hash(
        password,
      );
    const storedHash = async (table: string, column: string, uuid: string): Promise<string> => {
      const rows = await app
        .get(DataSource)
        .query<Array<{ hash: string }>>(`SELECT ${column} AS hash FROM ${table} WHERE uuid = $1`, [uuid]);
      return rows[0].hash;
    };

    it('replaces a user hash of an older cost with the current cost after a successful login only', async () => {
      const users = app.get(UsersService);
      const user = await users.create({
        tenantSlug: 'acme',
        email: 'old-hash@acme.test',
        password: PASSWORD,
        roleName: 'operator',
      });
      const older = await olderHash(PASSWORD);
      await app
        .get(DataSource)
        .query(`UPDATE auth.users SET password_hash = $1 WHERE uuid = $2`, [older, user.uuid]);

      await expect(
        authenticator.authenticate({
          tenant: 'acme',
          username: 'old-hash@acme.test',
          password: 'wrong-password',
          clientAddress: '127.0.0.3',
        }),
      ).rejects.toBeInstanceOf(InvalidCredentialsError);
      expect(await storedHash('auth.users', 'password_hash', user.uuid)).toBe(older);

      await authenticator.authenticate({
        tenant: 'acme',
        username: 'old-hash@acme.test',
        password: PASSWORD,
        clientAddress: '127.0.0.3',
      });
      const replaced = await storedHash('auth.users', 'password_hash', user.uuid);
      expect(costOf(older)).toBe('scrypt$1024$8$1');
      expect(costOf(replaced)).toBe(costOf(userHash));
      expect(await hasher.verify(PASSWORD, replaced)).toBe(true);
    });

    it('replaces an API-key hash of an older cost the same way', async () => {
      const key = await app.get(ApiKeysService).create('acme', 'operator');
      const older = await olderHash(key.private_key);
      await app
        .get(DataSource)
        .query(`UPDATE auth.api_keys SET secret_hash = $1 WHERE uuid = $2`, [older, key.uuid]);
      await authenticator.authenticate({
        tenant: 'acme',
        username: key.public_key,
        password: key.private_key,
        context: 'apikey',
        clientAddress: '127.0.0.3',
      });
      const replaced = await storedHash('auth.api_keys', 'secret_hash', key.uuid);
      expect(costOf(replaced)).toBe(costOf(userHash));
      expect(await hasher.verify(key.private_key, replaced)).toBe(true);
    });
  });

  it('finds an account by any spelling that normalizes to it (white space, case, NFKC)', async () => {
    for (const username of [' OPS@acme.test\t', 'Ops@Acme.Test ', '\uff4f\uff50\uff53@acme.test']) {
      const account = await authenticator.authenticate({
        tenant: ' ACME',
        username,
        password: PASSWORD,
        clientAddress: '127.0.0.4',
      });
      expect(account.tenant.slug).toBe('acme');
    }
  });

  it('gives the failure slots back when the check could not run (hashing at capacity: 503)', async () => {
    const narrow = await startCredentials(database.url, { TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS: '2' });
    try {
      const narrowAuthenticator = narrow.get(AccountAuthenticator);
      // The hasher's own refusal when its slots are taken (secret-hasher.spec), made to happen on the first check.
      jest.spyOn(narrow.get(SecretHasher), 'verify').mockRejectedValueOnce(new HashingAtCapacityError());
      const wrong = () =>
        narrowAuthenticator
          .authenticate({
            tenant: 'acme',
            username: 'ops@acme.test',
            password: 'wrong-password',
            clientAddress: '127.0.0.5',
          })
          .then(
            () => 'accepted',
            (error: DomainError) => error.code,
          );
      expect(await wrong()).toBe(ErrorCode.ServiceUnavailable);
      // The refused attempt took nothing: two failures are still allowed, the third is limited.
      expect(await wrong()).toBe(ErrorCode.InvalidCredentials);
      expect(await wrong()).toBe(ErrorCode.InvalidCredentials);
      expect(await wrong()).toBe(ErrorCode.RateLimited);
    } finally {
      await narrow.close();
    }
  });

  it('sweeps counters whose window has ended, but keeps those that remember a known address', async () => {
    const dataSource = app.get(DataSource);
    await dataSource.query(
      `INSERT INTO auth.token_limit_counters (scope, subject, window_started_at, hits, known_until) VALUES
         ('address', 'sweep-ended', now() - interval '2 hours', 3, NULL),
         ('address', 'sweep-running', now(), 3, NULL),
         ('account', 'sweep-ended-account', now() - interval '2 hours', 3, NULL),
         ('account_address', 'sweep-known', now() - interval '2 hours', 0, now() + interval '1 day'),
         ('account_address', 'sweep-forgotten', now() - interval '2 hours', 0, now() - interval '1 second')`,
    );
    await app.get(TokenLimits).sweep();
    const left = await dataSource.query<Array<{ subject: string }>>(
      `SELECT subject FROM auth.token_limit_counters WHERE subject LIKE 'sweep-%' ORDER BY subject`,
    );
    expect(left.map((row) => row.subject)).toEqual(['sweep-known', 'sweep-running']);
  });
});
