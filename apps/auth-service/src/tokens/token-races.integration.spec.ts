import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import type { TokenPair } from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, lockWaiters, openSession, outcome, type TestDatabase } from '@cpc/testing';
import jwt from 'jsonwebtoken';
import { DataSource, type QueryRunner } from 'typeorm';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { createAuthDataSource } from '../auth-data-source.js';
import { InvalidCredentialsError } from '../credentials/account-authenticator.service.js';
import { RolesService } from '../roles/roles.service.js';
import { SigningKeysService } from '../signing-keys/signing-keys.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { startAuthDomain } from '../testing/auth-domain-test-context.js';
import { UsersService } from '../users/users.service.js';
import { AccountRevocationsService } from './account-revocations.service.js';
import { TokenGrantsService } from './token-grants.service.js';

jest.setTimeout(60_000);

const PASSWORD = 'correct-horse-9';
const NEW_PASSWORD = 'battery-staple-10';
const CLIENT_ADDRESS = '198.51.100.20';
/** Raised so that the logins of this file never meet the per-address request budget. */
const ENV = { TOKEN_RATE_LIMIT_PER_ADDRESS: '10000' };

/**
 * Token issuing, refresh and credential changes under concurrency, on a real PostgreSQL database: each race is forced
 * into one order by a second session's locks (the code under test waits, the spec sees it wait, then lets go).
 */
describe('token grants under concurrency', () => {
  let database: TestDatabase;
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let tenants: TenantsService;
  let users: UsersService;
  let roles: RolesService;
  let apiKeys: ApiKeysService;
  let grants: TokenGrantsService;
  let signingKeys: SigningKeysService;
  let revocations: AccountRevocationsService;
  let tenantCount = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateServiceSchema(createAuthDataSource(database.url));
    app = await startAuthDomain(database.url, { env: ENV });
    dataSource = app.get(DataSource);
    tenants = app.get(TenantsService);
    users = app.get(UsersService);
    roles = app.get(RolesService);
    apiKeys = app.get(ApiKeysService);
    grants = app.get(TokenGrantsService);
    signingKeys = app.get(SigningKeysService);
    revocations = app.get(AccountRevocationsService);
    await signingKeys.ensureActiveKey();
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  /** A fresh tenant with role `ops` (`asset control`) and one user of it, `ops@<slug>.test`. */
  const newTenant = async () => {
    const slug = `tenant-${++tenantCount}`;
    const { uuid } = await tenants.create({ slug });
    await roles.create(slug, 'ops', ['asset', 'control']);
    await roles.create(slug, 'plain', ['asset']);
    const email = `ops@${slug}.test`;
    const user = await users.create({ tenantSlug: slug, email, password: PASSWORD, roleName: 'ops' });
    return { slug, uuid, email, userUuid: user.uuid };
  };
  const logIn = (slug: string, username: string, password = PASSWORD) =>
    grants.passwordGrant({ tenant: slug, username, password, clientAddress: CLIENT_ADDRESS });
  const refresh = (refreshToken: string) =>
    grants.refreshGrant({ refreshToken, clientAddress: CLIENT_ADDRESS });
  const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

  /**
   * The scope of the pair's access token if api-gateway would take it: signed by a key it still verifies with, and
   * not older than its account's revocation; null otherwise.
   */
  async function acceptedScope(pair: TokenPair): Promise<string | null> {
    const { header } = jwt.decode(pair.access_token, { complete: true })!;
    const key = (await signingKeys.verificationKeys()).find((candidate) => candidate.kid === header.kid);
    if (!key) return null;
    const claims = jwt.verify(pair.access_token, key.publicKeyPem, {
      algorithms: ['RS256'],
    }) as jwt.JwtPayload;
    return claims.iat! >= (await revocations.notBeforeOf(claims.sub!)) ? (claims.scope as string) : null;
  }

  /** Runs `body` while a second session's transaction is open, then rolls that transaction back. */
  async function withSession<T>(body: (session: QueryRunner) => Promise<T>): Promise<T> {
    const session = await openSession(dataSource);
    try {
      return await body(session);
    } finally {
      await session.rollbackTransaction();
      await session.release();
    }
  }

  /**
   * Holds reads of auth.account_revocations: a refresh waits there once it has used its token and stored the next one
   * (TokenGrantsService.issuePair reads the account's not-before time before signing), its transaction still open.
   */
  const holdRevocationReads = (session: QueryRunner) =>
    session.query(`LOCK TABLE auth.account_revocations IN ACCESS EXCLUSIVE MODE`);

  describe('refresh', () => {
    it('gives one new pair to a refresh token presented twice at once, and revokes the family', async () => {
      const { slug, email } = await newTenant();
      const first = await logIn(slug, email);

      const [a, b] = await withSession(async (session) => {
        await session.query(`SELECT 1 FROM auth.refresh_tokens WHERE token_hash = $1 FOR UPDATE`, [
          tokenHash(first.refresh_token),
        ]);
        const both = [outcome(refresh(first.refresh_token))];
        await lockWaiters(dataSource, 1);
        both.push(outcome(refresh(first.refresh_token)));
        await lockWaiters(dataSource, 2);
        return both;
      }).then((both) => Promise.all(both));

      const winners = [a, b].filter((result) => result.value !== undefined);
      expect(winners).toHaveLength(1);
      expect([a, b].find((result) => result.error)?.error).toBeInstanceOf(InvalidCredentialsError);
      // The second presentation is reuse: the winner's refresh token is part of the revoked family.
      expect((await outcome(refresh(winners[0].value!.refresh_token))).error).toBeInstanceOf(
        InvalidCredentialsError,
      );
    });

    // The family's revocation (one UPDATE of the rows it finds) cannot see the successor a refresh in flight inserts,
    // but it revokes the token that refresh used, once it committed; consume refuses a token of a family with a
    // revoked token (refresh-tokens.repository.ts), so the thief's successor is refused too.
    it('revokes the successor a refresh in flight mints when the family is revoked for reuse', async () => {
      const { slug, email } = await newTenant();
      const stolen = await logIn(slug, email);
      const thiefs = await refresh(stolen.refresh_token);

      const [thiefRefresh, ownerReuse] = await withSession(async (session) => {
        await holdRevocationReads(session);
        const thief = outcome(refresh(thiefs.refresh_token));
        await lockWaiters(dataSource, 1);
        // The owner presents the token the thief used first: reuse, the family is revoked.
        const owner = outcome(refresh(stolen.refresh_token));
        await lockWaiters(dataSource, 2);
        return [thief, owner];
      }).then((both) => Promise.all(both));

      expect(ownerReuse.error).toBeInstanceOf(InvalidCredentialsError);
      expect(thiefRefresh.value).toBeDefined();
      expect((await outcome(refresh(thiefRefresh.value!.refresh_token))).error).toBeInstanceOf(
        InvalidCredentialsError,
      );
    });

    // A refresh locks the account (FOR SHARE) before it uses its token, as a login does: the password change waits for
    // the user's row until the refresh committed, and then revokes the refresh token it issued with the others.
    it('refuses the refresh token issued by a refresh racing a password change', async () => {
      const { slug, email } = await newTenant();
      const pair = await logIn(slug, email);

      const [racing, change] = await withSession(async (session) => {
        await holdRevocationReads(session);
        const refreshing = outcome(refresh(pair.refresh_token));
        await lockWaiters(dataSource, 1);
        const changing = outcome(users.update(slug, email, { password: NEW_PASSWORD }));
        await lockWaiters(dataSource, 2);
        return [refreshing, changing] as const;
      }).then(([refreshing, changing]) => Promise.all([refreshing, changing]));

      expect(change.error).toBeUndefined();
      expect(racing.value).toBeDefined();
      expect((await outcome(refresh(racing.value!.refresh_token))).error).toBeInstanceOf(
        InvalidCredentialsError,
      );
    });

    // As above with a disable: the disable waits for the refresh to commit and revokes its new refresh token, which
    // stays refused after user:enable (docs/authentication.md: "refused from then on, also after user:enable").
    it('keeps the refresh token of a refresh racing a disable refused after the user is enabled', async () => {
      const { slug, email } = await newTenant();
      const pair = await logIn(slug, email);

      const [racing, disable] = await withSession(async (session) => {
        await holdRevocationReads(session);
        const refreshing = outcome(refresh(pair.refresh_token));
        await lockWaiters(dataSource, 1);
        const disabling = outcome(users.update(slug, email, { disabled: true }));
        await lockWaiters(dataSource, 2);
        return [refreshing, disabling] as const;
      }).then(([refreshing, disabling]) => Promise.all([refreshing, disabling]));
      await users.update(slug, email, { disabled: false });

      expect(disable.error).toBeUndefined();
      expect(racing.value).toBeDefined();
      expect((await outcome(refresh(racing.value!.refresh_token))).error).toBeInstanceOf(
        InvalidCredentialsError,
      );
    });

    it('refuses a refresh that waited for a password change to commit, and leaves no live token', async () => {
      const { slug, email, userUuid } = await newTenant();
      const pair = await logIn(slug, email);

      const [change, racing] = await withSession(async (session) => {
        // The change revokes the token while the refresh waits for its row.
        await session.query(`SELECT 1 FROM auth.users WHERE uuid = $1 FOR UPDATE`, [userUuid]);
        const changing = outcome(users.update(slug, email, { password: NEW_PASSWORD }));
        await lockWaiters(dataSource, 1);
        return [changing];
      }).then(async ([changing]) => [await changing, await outcome(refresh(pair.refresh_token))]);

      expect(change.error).toBeUndefined();
      expect(racing.error).toBeInstanceOf(InvalidCredentialsError);
      const live = await dataSource.query<unknown[]>(
        `SELECT 1 FROM auth.refresh_tokens WHERE account_uuid = $1 AND revoked_at IS NULL`,
        [userUuid],
      );
      expect(live).toHaveLength(0);
    });
  });

  describe('password login', () => {
    // The password is checked outside the issuing transaction, which locks the user again and compares the hash it
    // holds with the one checked (or its rehash): the change committed meanwhile replaced it, so the login is refused.
    it('refuses a login with the old password that waited for the password change', async () => {
      const { slug, email, userUuid } = await newTenant();

      const [change, login] = await withSession(async (session) => {
        await session.query(`SELECT 1 FROM auth.users WHERE uuid = $1 FOR UPDATE`, [userUuid]);
        const changing = outcome(users.update(slug, email, { password: NEW_PASSWORD }));
        await lockWaiters(dataSource, 1);
        // Checks the old password against the stored hash, then queues behind the change for the user's row.
        const loggingIn = outcome(logIn(slug, email, PASSWORD));
        await lockWaiters(dataSource, 2);
        return [changing, loggingIn] as const;
      }).then(([changing, loggingIn]) => Promise.all([changing, loggingIn]));

      expect(change.error).toBeUndefined();
      expect(login.error).toBeInstanceOf(InvalidCredentialsError);
    });

    it('refuses a login that waited for a disable of the user', async () => {
      const { slug, email, userUuid } = await newTenant();

      const [disable, login] = await withSession(async (session) => {
        await session.query(`SELECT 1 FROM auth.users WHERE uuid = $1 FOR UPDATE`, [userUuid]);
        const disabling = outcome(users.update(slug, email, { disabled: true }));
        await lockWaiters(dataSource, 1);
        const loggingIn = outcome(logIn(slug, email));
        await lockWaiters(dataSource, 2);
        return [disabling, loggingIn] as const;
      }).then(([disabling, loggingIn]) => Promise.all([disabling, loggingIn]));

      expect(disable.error).toBeUndefined();
      expect(login.error).toBeInstanceOf(InvalidCredentialsError);
    });

    // The role's permissions are read in the issuing transaction, after the account's lock, with the role's row
    // locked (FOR SHARE): a narrowing committed meanwhile is what the token carries; one still to come would wait for
    // the login to commit and then revoke its tokens.
    it('gives no token with permissions its role lost while the login was under way', async () => {
      const { slug, email, userUuid } = await newTenant();

      const [login] = await withSession(async (session) => {
        await session.query(`SELECT 1 FROM auth.users WHERE uuid = $1 FOR UPDATE`, [userUuid]);
        const loggingIn = outcome(logIn(slug, email));
        await lockWaiters(dataSource, 1);
        await roles.setPermissions(slug, 'ops', ['asset']);
        return [loggingIn];
      }).then((settled) => Promise.all(settled));

      const granted = login.value ? await acceptedScope(login.value) : null;
      expect(granted?.split(' ') ?? []).not.toContain('control');
    });

    // The issuing transaction locks the tenant too (FOR KEY SHARE, after the account), not disabled: a disable
    // committed meanwhile ends the login; one still to come (FOR UPDATE of the tenant) waits for it and revokes its
    // tokens.
    it('refuses a login that was under way while its tenant was disabled', async () => {
      const { slug, email, userUuid } = await newTenant();

      const [login] = await withSession(async (session) => {
        await session.query(`SELECT 1 FROM auth.users WHERE uuid = $1 FOR UPDATE`, [userUuid]);
        const loggingIn = outcome(logIn(slug, email));
        await lockWaiters(dataSource, 1);
        await tenants.setDisabled(slug, true);
        return [loggingIn];
      }).then((settled) => Promise.all(settled));

      expect(login.error).toBeInstanceOf(InvalidCredentialsError);
    });

    it('refuses a client_credentials login of an API key given another role meanwhile', async () => {
      const { slug } = await newTenant();
      const key = await apiKeys.create(slug, 'ops', 'integration');

      const [change, login] = await withSession(async (session) => {
        await session.query(`SELECT 1 FROM auth.api_keys WHERE uuid = $1 FOR UPDATE`, [key.uuid]);
        const changing = outcome(apiKeys.update(slug, key.public_key, { roleName: 'plain' }));
        await lockWaiters(dataSource, 1);
        const loggingIn = outcome(
          grants.passwordGrant({
            username: key.public_key,
            password: key.private_key,
            context: 'apikey',
            clientAddress: CLIENT_ADDRESS,
          }),
        );
        await lockWaiters(dataSource, 2);
        return [changing, loggingIn] as const;
      }).then(([changing, loggingIn]) => Promise.all([changing, loggingIn]));

      expect(change.error).toBeUndefined();
      expect(login.error).toBeInstanceOf(InvalidCredentialsError);
    });
  });

  describe('signing keys', () => {
    it('signs with the retired key on a replica that missed the rotation, and that token still verifies', async () => {
      const { slug, email } = await newTenant();
      const replica = await startAuthDomain(database.url, { env: ENV });
      try {
        const before = await logIn(slug, email);
        const oldKid = jwt.decode(before.access_token, { complete: true })!.header.kid;
        const rotated = await replica.get(SigningKeysService).rotate();

        const stale = await logIn(slug, email);
        expect(jwt.decode(stale.access_token, { complete: true })!.header.kid).toBe(oldKid);
        expect(await acceptedScope(stale)).toBe('asset control');
        const fresh = await replica.get(TokenGrantsService).passwordGrant({
          tenant: slug,
          username: email,
          password: PASSWORD,
          clientAddress: CLIENT_ADDRESS,
        });
        expect(jwt.decode(fresh.access_token, { complete: true })!.header.kid).toBe(rotated.kid);
      } finally {
        await replica.close();
      }
    });

    // Revoking the active key makes the new key's pair first and then revokes the old key and inserts the new one in
    // one transaction: a login meanwhile finds the key active until that commit (its token is then ended with the
    // others that key signed), never no active key; once the revocation returned, logins are signed with the new key.
    it('signs a login that runs while the active key is being revoked', async () => {
      const { slug, email } = await newTenant();
      const activeKid = (await signingKeys.list()).find((key) => key.status === 'active')!.kid;
      // Test-only instrumentation: every insert of a signing key waits while the spec holds advisory lock 4242.
      await dataSource.query(`
        CREATE FUNCTION public.pause_signing_key_insert() RETURNS trigger LANGUAGE plpgsql AS
          $$ BEGIN PERFORM pg_advisory_xact_lock_shared(4242); RETURN NEW; END $$`);
      await dataSource.query(`
        CREATE TRIGGER pause_signing_key_insert BEFORE INSERT ON auth.signing_keys
          FOR EACH ROW EXECUTE FUNCTION public.pause_signing_key_insert()`);
      try {
        const [revoke, login] = await withSession(async (session) => {
          await session.query(`SELECT pg_advisory_xact_lock(4242)`);
          const revoking = outcome(signingKeys.revoke(activeKid));
          // The old key is revoked and the new one waits to be inserted, in one transaction not committed yet.
          await lockWaiters(dataSource, 1);
          return [revoking, await outcome(logIn(slug, email))] as const;
        }).then(async ([revoking, loggedIn]) => [await revoking, loggedIn] as const);

        expect(revoke.error).toBeUndefined();
        expect(login.error).toBeUndefined();
        const newKid = (await signingKeys.list()).find((key) => key.status === 'active')!.kid;
        expect(newKid).not.toBe(activeKid);
        const after = await logIn(slug, email);
        expect(jwt.decode(after.access_token, { complete: true })!.header.kid).toBe(newKid);
      } finally {
        await dataSource.query(`DROP TRIGGER pause_signing_key_insert ON auth.signing_keys`);
        await dataSource.query(`DROP FUNCTION public.pause_signing_key_insert()`);
      }
    });
  });
});
