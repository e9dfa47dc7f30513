import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import {
  type ApiResponse,
  ApiTestClient,
  eventually,
  type PlatformUnderTest,
  startPlatformUnderTest,
} from '@cpc/testing';
import { jest } from '@jest/globals';
import jwt from 'jsonwebtoken';
import pg from 'pg';

// Several tests run admin CLI commands one after the other, each a process of its own.
jest.setTimeout(180_000);

const PASSWORD = 'correct-horse-9';
const RATE_LIMIT = 40;
const LOCATIONS = '/api/v1/assets/locations';

const base64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A JWT put together by hand, for algorithms a JWT library refuses to produce. */
function handMadeToken(header: object, claims: object, sign: (input: string) => string): string {
  const input = `${base64url(header)}.${base64url(claims)}`;
  return `${input}.${sign(input)}`;
}

/**
 * The bearer guard in front of every non-public route, through HTTP against the running services: every way a token
 * can be unusable answers 401 with a Bearer challenge, a missing permission 403, each subject has its own request
 * budget. Every response is checked against the served OpenAPI document.
 */
describe('bearer token guard on protected routes', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let database: pg.Client;
  let token: string;
  let claims: jwt.JwtPayload;
  let kid: string;
  /** A key pair of the test's own, registered in auth's signing_keys as a verification-only (retired) key. */
  const trusted = { kid: `test-${randomUUID()}`, ...generateKeyPairSync('rsa', { modulusLength: 2048 }) };

  const list = (authorization?: string) =>
    api.call('GET', LOCATIONS, { headers: authorization === undefined ? {} : { authorization } });

  async function tokenFor(
    email: string,
    tenant = 'acme',
  ): Promise<{ access_token: string; refresh_token: string }> {
    const response = await api.call('POST', '/api/v1/oauth/token', {
      body: { username: email, password: PASSWORD, tenant },
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  async function createUser(email: string, role: string, tenant = 'acme'): Promise<void> {
    await platform.admin([
      ...['user:create', '--tenant', tenant, '--email', email],
      ...['--password', PASSWORD, '--role', role],
    ]);
  }

  function expectRefused(response: ApiResponse, error?: string): void {
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: error ?? expect.any(String) });
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="charging-platform-core", error="invalid_token"',
    );
  }

  /** Signed with the test's trusted key: a valid signature, so only the claims decide. */
  const signedByTrustedKey = (overrides: jwt.JwtPayload) =>
    jwt.sign({ ...claims, ...overrides }, trusted.privateKey, {
      algorithm: 'RS256',
      keyid: trusted.kid,
    });

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'command-service', 'api-gateway'],
      env: { API_RATE_LIMIT_PER_SUBJECT: String(RATE_LIMIT) },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    database = new pg.Client({ connectionString: platform.databaseUrl });
    await database.connect();
    // Before the first protected request, so the gateway's first key fetch already holds it. Only the public key
    // matters to a verifier; a retired key is never used to sign, so its private half is not stored.
    await database.query(
      `INSERT INTO auth.signing_keys (kid, algorithm, public_key_pem, private_key_ciphertext, status, retired_at)
       VALUES ($1, 'RS256', $2, 'not stored: a verification-only test key', 'retired', now())`,
      [trusted.kid, trusted.publicKey.export({ type: 'spki', format: 'pem' })],
    );
    await platform.admin(['tenant:create', '--slug', 'acme']);
    await platform.admin(['role:create', '--tenant', 'acme', '--name', 'reader', '--permissions', 'asset']);
    await createUser('reader@acme.test', 'reader');
    token = (await tokenFor('reader@acme.test')).access_token;
    const decoded = jwt.decode(token, { complete: true })!;
    claims = decoded.payload as jwt.JwtPayload;
    kid = decoded.header.kid!;
  }, 180_000);

  afterAll(async () => {
    await database?.end();
    await platform?.stop();
  });

  it('lets a valid token through, and one signed by a key auth-service lists', async () => {
    expect((await list(`Bearer ${token}`)).status).toBe(200);
    expect((await list(`Bearer ${signedByTrustedKey({})}`)).status).toBe(200);
  });

  it('answers a missing or malformed Authorization header with 401 and a Bearer challenge', async () => {
    // Without a bearer token the challenge names no error (RFC 6750 §3.1).
    for (const header of [
      undefined,
      `Basic ${Buffer.from('reader:pw').toString('base64')}`,
      token, // no scheme
      'Bearer',
    ]) {
      const anonymous = await list(header);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ error: 'missing bearer token' });
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="charging-platform-core"');
    }
    for (const header of [
      'Bearer not-a-jwt',
      'Bearer a.b.c',
      `Bearer ${token.split('.').slice(0, 2).join('.')}`, // no signature part
    ]) {
      expectRefused(await list(header));
    }
  });

  it('refuses a token whose signature does not match (another key, a changed claim)', async () => {
    const intruder = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = jwt.sign(claims, intruder.privateKey, { algorithm: 'RS256', keyid: kid });
    expectRefused(await list(`Bearer ${forged}`), 'invalid access token');

    const [header, , signature] = token.split('.');
    const widened = `${header}.${base64url({ ...claims, scope: '*' })}.${signature}`;
    expectRefused(await list(`Bearer ${widened}`), 'invalid access token');
  });

  it('refuses alg none and HS256 signed with the public key', async () => {
    const unsigned = handMadeToken({ alg: 'none', typ: 'JWT', kid }, claims, () => '');
    expectRefused(await list(`Bearer ${unsigned}`), 'invalid access token');

    // The platform's own public key, as anyone may learn it, used as an HMAC secret.
    const { rows } = await database.query<{ public_key_pem: string }>(
      'SELECT public_key_pem FROM auth.signing_keys WHERE kid = $1',
      [kid],
    );
    const hmac = handMadeToken({ alg: 'HS256', typ: 'JWT', kid }, claims, (input) =>
      createHmac('sha256', rows[0].public_key_pem).update(input).digest('base64url'),
    );
    expectRefused(await list(`Bearer ${hmac}`), 'invalid access token');
  });

  it('refuses an expired token, a token from another issuer or for another audience, and one without a kid', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectRefused(
      await list(`Bearer ${signedByTrustedKey({ iat: now - 7200, exp: now - 3600 })}`),
      'access token expired',
    );
    expectRefused(
      await list(`Bearer ${signedByTrustedKey({ iss: 'someone-else' })}`),
      'invalid access token',
    );
    expectRefused(await list(`Bearer ${signedByTrustedKey({ aud: 'another-api' })}`), 'invalid access token');
    const withoutKid = jwt.sign(claims, trusted.privateKey, { algorithm: 'RS256' });
    expectRefused(await list(`Bearer ${withoutKid}`), 'access token has no key id');
    expectRefused(
      await list(`Bearer ${signedByTrustedKey({ tenant_uuid: undefined })}`),
      'access token lacks required claims',
    );
  });

  it('refuses tokens signed with a key it does not know or that was revoked', async () => {
    const unknownKid = jwt.sign(claims, trusted.privateKey, { algorithm: 'RS256', keyid: randomUUID() });
    expectRefused(await list(`Bearer ${unknownKid}`), 'access token signed with an unknown or revoked key');

    // A subject of its own, so polling does not eat the reader's request budget.
    const stillTrusted = signedByTrustedKey({ sub: randomUUID() });
    expect((await list(`Bearer ${stillTrusted}`)).status).toBe(200);
    await platform.admin(['key:revoke', '--kid', trusted.kid]);
    const refused = await eventually(
      () => list(`Bearer ${stillTrusted}`),
      (response) => response.status === 401,
    );
    expectRefused(refused, 'access token signed with an unknown or revoked key');
    expect((await list(`Bearer ${token}`)).status).toBe(200);
  });

  it('answers a valid token without the permission with 403, and grants cover what lies below them', async () => {
    const routes = {
      [LOCATIONS]: 'asset:locations:list',
      '/api/v1/control/commands': 'control:commands:list',
    };
    /** What the probe user's new token gets on each route: 200 or 403. */
    const probe = async () => {
      const { access_token } = await tokenFor('probe@acme.test');
      const statuses: number[] = [];
      for (const [path, permission] of Object.entries(routes)) {
        const response = await api.call('GET', path, { token: access_token });
        if (response.status === 403) {
          expect(response.body).toEqual({ error: `missing permission ${permission}` });
          expect(response.headers.get('www-authenticate')).toBeNull();
        }
        statuses.push(response.status);
      }
      return statuses;
    };
    await platform.admin([
      ...['role:create', '--tenant', 'acme', '--name', 'probe'],
      ...['--permissions', 'control:commands'],
    ]);
    await createUser('probe@acme.test', 'probe');
    // [locations list, commands list] per grant; the permission-grants unit test has more cases.
    const outcomes: Record<string, number[]> = { 'control:commands': await probe() };
    for (const permissions of [
      'control',
      '*',
      'control:other,asset:locations',
      'asset:locations:read,control:command',
    ]) {
      await platform.admin([
        ...['role:set-permissions', '--tenant', 'acme', '--name', 'probe'],
        ...['--permissions', permissions],
      ]);
      outcomes[permissions] = await probe();
    }
    expect(outcomes).toEqual({
      'control:commands': [403, 200],
      control: [403, 200],
      '*': [200, 200],
      'control:other,asset:locations': [200, 403],
      'asset:locations:read,control:command': [403, 403],
    });
  });

  it('limits each subject on its own: 429 with Retry-After for one, the others are still served', async () => {
    await createUser('hammer@acme.test', 'reader');
    const hammer = `Bearer ${(await tokenFor('hammer@acme.test')).access_token}`;
    let refused: ApiResponse | undefined;
    // The window is fixed, so a window boundary during the loop may let up to twice the limit through.
    for (let batch = 0; batch < (2 * RATE_LIMIT) / 20 + 1 && !refused; batch += 1) {
      const responses = await Promise.all(Array.from({ length: 20 }, () => list(hammer)));
      expect(responses.every((response) => [200, 429].includes(response.status))).toBe(true);
      refused = responses.find((response) => response.status === 429);
    }
    expect(refused?.body).toEqual({ error: expect.any(String) });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await list(`Bearer ${token}`)).status).toBe(200);
  });

  it('keeps tokens of the previous key valid after key:rotate, and refuses them once key:revoke ran', async () => {
    const before = `Bearer ${token}`;
    const rotated = await platform.admin(['key:rotate']);
    expect(rotated).toMatchObject({ kid: expect.any(String), status: 'active' });
    expect(rotated.kid).not.toBe(kid);
    expect((await list(before)).status).toBe(200);

    // auth-service hears of the rotation over NATS; from then on it signs with the new key.
    const after = await eventually(
      () => tokenFor('reader@acme.test'),
      (pair) => jwt.decode(pair.access_token, { complete: true })?.header.kid === rotated.kid,
    );
    expect((await list(`Bearer ${after.access_token}`)).status).toBe(200);
    const { keys } = await platform.admin(['key:list']);
    expect(keys).toContainEqual(expect.objectContaining({ kid, status: 'retired' }));

    await platform.admin(['key:revoke', '--kid', kid]);
    const refused = await eventually(
      () => list(before),
      (response) => response.status === 401,
    );
    expectRefused(refused, 'access token signed with an unknown or revoked key');
    expect((await list(`Bearer ${after.access_token}`)).status).toBe(200);
  });

  // Access tokens are verified without a call to auth-service, so they run until `exp`; disabling stops new ones.
  // Last in this file: it disables the tenant every other test uses.
  it('refuses new tokens and refreshes to a disabled user or tenant', async () => {
    const refresh = (refreshToken: string) =>
      api.call('POST', '/api/v1/oauth/token', {
        body: { grant_type: 'refresh_token', refresh_token: refreshToken },
      });
    const reader = await tokenFor('reader@acme.test');
    await createUser('leaver@acme.test', 'reader');
    const leaver = await tokenFor('leaver@acme.test');
    await platform.admin(['user:disable', '--tenant', 'acme', '--email', 'leaver@acme.test']);
    expect((await refresh(leaver.refresh_token)).status).toBe(401);
    const renewed = await refresh(reader.refresh_token);
    expect(renewed.status).toBe(200);

    await platform.admin(['tenant:disable', '--slug', 'acme']);
    const refused = await api.call('POST', '/api/v1/oauth/token', {
      body: { username: 'reader@acme.test', password: PASSWORD, tenant: 'acme' },
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid credentials' });
    expect((await refresh(renewed.body.refresh_token)).status).toBe(401);
  });
});
