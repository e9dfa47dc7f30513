import { ApiTestClient, type PlatformUnderTest, startPlatformUnderTest } from '@cpc/testing';
import jwt from 'jsonwebtoken';

const PASSWORD = 'correct-horse-9';

describe('POST /api/v1/oauth/token', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let tenant: { uuid: string; slug: string };
  let apiKey: { public_key: string; private_key: string };
  let nextAddress = 1;

  /** Each test speaks from its own client address (X-Forwarded-For through a trusted proxy) so address limits stay apart. */
  const requestToken = (body: Record<string, unknown>, address = `10.0.0.${nextAddress}`) =>
    api.call('POST', '/api/v1/oauth/token', { body, headers: { 'x-forwarded-for': address } });

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'api-gateway'],
      env: {
        TRUSTED_PROXIES: '127.0.0.1',
        TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS: '8',
        TOKEN_FAILURE_LIMIT_PER_ACCOUNT: '8',
        TOKEN_RATE_LIMIT_PER_ADDRESS: '8',
      },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    tenant = await platform.admin(['tenant:create', '--slug', 'acme', '--name', 'ACME Charging']);
    await platform.admin([
      'role:create',
      '--tenant',
      'acme',
      '--name',
      'operator',
      '--permissions',
      'control:commands,asset',
    ]);
    await platform.admin([
      'user:create',
      '--tenant',
      'acme',
      '--email',
      'ops@acme.test',
      '--password',
      PASSWORD,
      '--role',
      'operator',
    ]);
    await platform.admin([
      'user:create',
      '--tenant',
      'acme',
      '--email',
      'boss@acme.test',
      '--password',
      PASSWORD,
      '--role',
      'operator',
      '--entity-type',
      'employer',
    ]);
    apiKey = await platform.admin([
      'apikey:create',
      '--tenant',
      'acme',
      '--role',
      'operator',
      '--name',
      'backend',
    ]);
  }, 240_000);

  afterAll(() => platform?.stop());
  beforeEach(() => {
    nextAddress += 1;
  });

  it('issues a Bearer pair for user credentials with an RS256 access token carrying every claim', async () => {
    const response = await requestToken({ username: 'OPS@acme.test', password: PASSWORD, tenant: 'acme' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const decoded = jwt.decode(response.body.access_token, { complete: true })!;
    expect(decoded.header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    const claims = decoded.payload as Record<string, unknown>;
    expect(claims).toMatchObject({
      iss: 'charging-platform-core',
      aud: 'charging-platform-core-api',
      sub: expect.any(String),
      sub_type: 'user',
      tenant: 'acme',
      tenant_uuid: tenant.uuid,
      scope: 'control:commands asset',
      jti: expect.any(String),
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(claims.data).toBeUndefined();
  });

  it('accepts application/x-www-form-urlencoded bodies as OAuth clients send them', async () => {
    const response = await api.call('POST', '/api/v1/oauth/token', {
      form: { grant_type: 'password', username: 'ops@acme.test', password: PASSWORD, tenant: 'acme' },
      headers: { 'x-forwarded-for': '10.0.1.1' },
    });
    expect(response.status).toBe(200);
  });

  it('issues tokens to API keys (context apikey) with sub_type apikey', async () => {
    const response = await requestToken({
      username: apiKey.public_key,
      password: apiKey.private_key,
      tenant: 'acme',
      context: 'apikey',
    });
    expect(response.status).toBe(200);
    expect(jwt.decode(response.body.access_token)).toMatchObject({ sub_type: 'apikey' });
  });

  it("uses the tenant's default context when none is given, and the given one when it matches the account", async () => {
    expect(
      (await requestToken({ username: apiKey.public_key, password: apiKey.private_key, tenant: 'acme' }))
        .status,
    ).toBe(401);
    const employer = await requestToken({
      username: 'boss@acme.test',
      password: PASSWORD,
      tenant: 'acme',
      context: 'employer',
    });
    expect(employer.status).toBe(200);
    expect(jwt.decode(employer.body.access_token)).toMatchObject({ sub_type: 'employer' });
  });

  it('refuses a context that is not the account entity type with 401', async () => {
    for (const context of ['contract', 'employee', 'client', 'apikey']) {
      const response = await requestToken({
        username: 'ops@acme.test',
        password: PASSWORD,
        tenant: 'acme',
        context,
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'invalid credentials' });
    }
  });

  it('embeds a uuid equal to the tenant uuid as data.uuid, and refuses any other uuid with 400 on uuid', async () => {
    const good = await requestToken({
      username: 'ops@acme.test',
      password: PASSWORD,
      tenant: 'acme',
      uuid: tenant.uuid,
    });
    expect(good.status).toBe(200);
    expect(jwt.decode(good.body.access_token)).toMatchObject({ data: { uuid: tenant.uuid } });
    const other = await requestToken({
      username: 'ops@acme.test',
      password: PASSWORD,
      tenant: 'acme',
      uuid: '8d3c4c0a-6a4f-4b8e-9b5e-0c2d3f4a5b6c',
    });
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual([
      { parameter: 'uuid', errorKey: 'invalid_value', message: expect.any(String) },
    ]);
  });

  it.each([
    ['missing username', { password: PASSWORD, tenant: 'acme' }, 'username', 'required'],
    ['missing password', { username: 'ops@acme.test', tenant: 'acme' }, 'password', 'required'],
    ['missing tenant', { username: 'ops@acme.test', password: PASSWORD }, 'tenant', 'required'],
    ['short username', { username: 'abc', password: PASSWORD, tenant: 'acme' }, 'username', 'invalid_length'],
    [
      'long password',
      { username: 'ops@acme.test', password: 'x'.repeat(129), tenant: 'acme' },
      'password',
      'invalid_length',
    ],
    [
      'short tenant',
      { username: 'ops@acme.test', password: PASSWORD, tenant: 'ac' },
      'tenant',
      'invalid_length',
    ],
    [
      'uuid not 36 characters',
      { username: 'ops@acme.test', password: PASSWORD, tenant: 'acme', uuid: 'abc' },
      'uuid',
      'invalid_uuid',
    ],
    [
      'unknown context',
      { username: 'ops@acme.test', password: PASSWORD, tenant: 'acme', context: 'robot' },
      'context',
      'invalid_value',
    ],
    [
      'username of the wrong type',
      { username: 1234567, password: PASSWORD, tenant: 'acme' },
      'username',
      'invalid_type',
    ],
    [
      'unknown grant type',
      { grant_type: 'authorization_code', username: 'ops@acme.test', password: PASSWORD, tenant: 'acme' },
      'grant_type',
      'invalid_value',
    ],
  ])('answers 400 naming the parameter: %s', async (_case, body, parameter, errorKey) => {
    const response = await requestToken(body);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ parameter, errorKey, message: expect.any(String) }]);
  });

  it('lists one item per invalid field', async () => {
    const response = await requestToken({ username: 'ab', context: 'robot' });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((issue: { parameter: string }) => issue.parameter).sort()).toEqual([
      'context',
      'password',
      'tenant',
      'username',
    ]);
  });

  it('answers malformed JSON, a non-object body and a wrong content type with a 4xx in the spec shape', async () => {
    const malformed = await api.call('POST', '/api/v1/oauth/token', {
      rawBody: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: expect.any(String) });
    const array = await requestToken([] as never);
    expect(array.status).toBe(400);
    const text = await api.call('POST', '/api/v1/oauth/token', {
      rawBody: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ error: expect.any(String) });
    const huge = await api.call('POST', '/api/v1/oauth/token', {
      body: { username: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: expect.any(String) });
  });

  it('answers unknown tenant, unknown user, wrong password, disabled user and revoked key with the same 401', async () => {
    await platform.admin([
      'user:create',
      '--tenant',
      'acme',
      '--email',
      'gone@acme.test',
      '--password',
      PASSWORD,
      '--role',
      'operator',
    ]);
    await platform.admin(['user:disable', '--tenant', 'acme', '--email', 'gone@acme.test']);
    const revoked = await platform.admin(['apikey:create', '--tenant', 'acme', '--role', 'operator']);
    await platform.admin(['apikey:revoke', '--tenant', 'acme', '--public-key', revoked.public_key]);
    const attempts = [
      { username: 'ops@acme.test', password: PASSWORD, tenant: 'nobody' },
      { username: 'nobody@acme.test', password: PASSWORD, tenant: 'acme' },
      { username: 'ops@acme.test', password: 'wrong-password', tenant: 'acme' },
      { username: 'gone@acme.test', password: PASSWORD, tenant: 'acme' },
      { username: revoked.public_key, password: revoked.private_key, tenant: 'acme', context: 'apikey' },
    ];
    for (const [index, attempt] of attempts.entries()) {
      const response = await requestToken(attempt, `10.0.2.${index}`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'invalid credentials' });
    }
    // Four runs of the admin CLI (a process each) and five password checks: more than the default on a busy machine.
  }, 90_000);

  it('refreshes with a single-use refresh token and revokes the family when a used one comes back', async () => {
    const first = await requestToken({ username: 'ops@acme.test', password: PASSWORD, tenant: 'acme' });
    const second = await requestToken({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(jwt.decode(second.body.access_token)).toMatchObject({ sub_type: 'user', tenant: 'acme' });

    const replay = await requestToken({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
    });
    expect(replay.status).toBe(401);
    const afterReplay = await requestToken({
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token,
    });
    expect(afterReplay.status).toBe(401);
    expect((await requestToken({ grant_type: 'refresh_token' })).status).toBe(400);
    expect((await requestToken({ grant_type: 'refresh_token', refresh_token: 'made-up' })).status).toBe(401);
  });

  it('limits failed attempts per tenant and username from all addresses with 429 and Retry-After', async () => {
    await platform.admin([
      'user:create',
      '--tenant',
      'acme',
      '--email',
      'limited@acme.test',
      '--password',
      PASSWORD,
      '--role',
      'operator',
    ]);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let attempt = 0; attempt < 9; attempt += 1) {
      const response = await requestToken(
        { username: 'limited@acme.test', password: 'wrong-one', tenant: 'acme' },
        `10.0.3.${attempt}`,
      );
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.body).toEqual({ error: expect.any(String) });
        retryAfter = response.headers.get('retry-after');
      }
    }
    expect(statuses).toEqual([...Array(8).fill(401), 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('limits attempts per client address with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 9; attempt += 1) {
      statuses.push(
        (
          await requestToken(
            { username: `user${attempt}@acme.test`, password: 'wrong-one', tenant: 'acme' },
            '10.0.4.1',
          )
        ).status,
      );
    }
    expect(statuses.slice(0, 8).every((status) => status === 401)).toBe(true);
    expect(statuses[8]).toBe(429);
  });

  it('answers another method on the token path with 405 and Allow', async () => {
    const response = await api.call('GET', '/api/v1/oauth/token');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.body).toEqual({ error: expect.any(String) });
  });
});
