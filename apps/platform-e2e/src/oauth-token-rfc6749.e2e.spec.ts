import { ApiTestClient, type PlatformUnderTest, startPlatformUnderTest } from '@cpc/testing';
import jwt from 'jsonwebtoken';
import { ClientCredentials, ResourceOwnerPassword } from 'simple-oauth2';

const PASSWORD = 'correct-horse-9';
const FAILURE_LIMIT = 4;

/** What simple-oauth2 (through @hapi/wreck) throws on an error status: a Boom error with the answer. */
interface WreckError {
  output: { statusCode: number };
  data: { payload: unknown };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { output, data } = error as WreckError;
    // The library parses JSON answers itself (wreck `json: 'strict'`).
    const body = Buffer.isBuffer(data.payload)
      ? (JSON.parse(data.payload.toString()) as unknown)
      : data.payload;
    return { status: output.statusCode, body };
  }
  throw new Error('the request was not refused');
}

/**
 * The RFC 6749 forms of POST /api/v1/oauth/token, driven by an off-the-shelf OAuth 2.0 client library (simple-oauth2,
 * form-encoded bodies, client authentication by HTTP Basic or in the body): the password grant, client_credentials
 * with an API key, refresh_token, and `scope` narrowing a token (shown by a 403 outside it). The spec's own form and
 * its limits: oauth-token.e2e and oauth-token-limits.e2e.
 */
describe('POST /api/v1/oauth/token with an OAuth 2.0 client library', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let tenant: { uuid: string; slug: string };
  let apiKey: { public_key: string; private_key: string };
  let nextAddress = 1;
  /** Each test speaks from its own client address (X-Forwarded-For through a trusted proxy). */
  let address = '';

  const tokenHost = () => platform.apiUrl;
  const auth = () => ({ tokenHost: tokenHost(), tokenPath: '/api/v1/oauth/token' });
  const from = () => ({ headers: { 'x-forwarded-for': address } });

  /** A user's client: the platform has public clients only, so its client id and secret are sent and not used. */
  const userClient = () => new ResourceOwnerPassword({ client: { id: 'console', secret: '' }, auth: auth() });

  const apiKeyClient = (authorizationMethod: 'header' | 'body', key = apiKey) =>
    new ClientCredentials({
      client: { id: key.public_key, secret: key.private_key },
      auth: auth(),
      options: { authorizationMethod },
    });

  const get = (path: string, token: string) =>
    api.call('GET', `/api/v1/${path}`, { token, headers: { 'x-forwarded-for': address } });

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'api-gateway'],
      env: {
        TRUSTED_PROXIES: '127.0.0.1',
        TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS: String(FAILURE_LIMIT),
        TOKEN_FAILURE_LIMIT_PER_ACCOUNT: String(FAILURE_LIMIT),
        TOKEN_RATE_LIMIT_PER_ADDRESS: '20',
      },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    tenant = await platform.admin(['tenant:create', '--slug', 'acme', '--name', 'ACME Charging']);
    await platform.admin(['tenant:create', '--slug', 'rival']);
    const role = ['role:create', '--tenant', 'acme', '--name', 'operator', '--permissions'];
    await platform.admin([...role, 'admin:users,admin:roles:list,asset']);
    await platform.admin([
      ...['user:create', '--tenant', 'acme', '--email', 'ops@acme.test'],
      ...['--password', PASSWORD, '--role', 'operator'],
    ]);
    apiKey = await platform.admin(['apikey:create', '--tenant', 'acme', '--role', 'operator']);
  }, 300_000);

  afterAll(() => platform?.stop());
  beforeEach(() => {
    nextAddress += 1;
    address = `10.7.0.${nextAddress}`;
  });

  it('obtains a token by the password grant (form body, Basic client id) and refreshes it', async () => {
    const client = userClient();
    const token = await client.getToken(
      { username: 'ops@acme.test', password: PASSWORD, tenant: 'acme' },
      from(),
    );
    expect(token.token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(jwt.decode(token.token.access_token as string)).toMatchObject({
      sub_type: 'user',
      tenant_uuid: tenant.uuid,
      scope: 'admin:users admin:roles:list asset',
    });
    expect((await get('admin/users', token.token.access_token as string)).status).toBe(200);

    const refreshed = await token.refresh({}, from());
    expect(refreshed.token.refresh_token).not.toBe(token.token.refresh_token);
    expect((await get('admin/users', refreshed.token.access_token as string)).status).toBe(200);
    // Single use, as with the spec's form: the old refresh token again revokes the family.
    expect((await refusal(token.refresh({}, from()))).status).toBe(401);
    expect((await refusal(refreshed.refresh({}, from()))).status).toBe(401);
  });

  it.each(['header', 'body'] as const)(
    'obtains a token by client_credentials with the API key in the %s, the tenant named by the key',
    async (authorizationMethod) => {
      const token = await apiKeyClient(authorizationMethod).getToken({}, from());
      expect(jwt.decode(token.token.access_token as string)).toMatchObject({
        sub_type: 'apikey',
        tenant: 'acme',
        tenant_uuid: tenant.uuid,
      });
      expect((await get('admin/roles', token.token.access_token as string)).status).toBe(200);
      const refreshed = await token.refresh({}, from());
      expect(jwt.decode(refreshed.token.access_token as string)).toMatchObject({ sub_type: 'apikey' });
    },
  );

  it('takes a tenant with client_credentials too, and refuses the key in another tenant with 401', async () => {
    const named = await apiKeyClient('header').getToken({ tenant: 'acme' }, from());
    expect(jwt.decode(named.token.access_token as string)).toMatchObject({ tenant: 'acme' });
    const rival = await refusal(apiKeyClient('body').getToken({ tenant: 'rival' }, from()));
    expect(rival).toEqual({ status: 401, body: { error: 'invalid credentials' } });
  });

  it('narrows a token to a scope within the role: 200 inside it, 403 outside it, also after a refresh', async () => {
    const token = await userClient().getToken(
      { username: 'ops@acme.test', password: PASSWORD, tenant: 'acme', scope: ['admin:users:list'] },
      from(),
    );
    expect(token.token.scope).toBe('admin:users:list');
    const access = token.token.access_token as string;
    expect(jwt.decode(access)).toMatchObject({ scope: 'admin:users:list' });
    expect((await get('admin/users', access)).status).toBe(200);
    // Held by the role, outside the narrowed scope.
    expect((await get('admin/roles', access)).status).toBe(403);
    expect((await get('assets/locations', access)).status).toBe(403);

    const refreshed = await token.refresh({}, from());
    expect(refreshed.token.scope).toBe('admin:users:list');
    expect((await get('admin/roles', refreshed.token.access_token as string)).status).toBe(403);
  });

  it('narrows a client_credentials token, and narrows further (never widens) on refresh', async () => {
    const token = await apiKeyClient('header').getToken({ scope: 'asset admin:roles:list' }, from());
    expect((await get('admin/roles', token.token.access_token as string)).status).toBe(200);
    expect((await get('admin/users', token.token.access_token as string)).status).toBe(403);

    const wider = await refusal(token.refresh({ scope: 'asset admin:users' }, from()));
    expect(wider).toEqual({
      status: 400,
      body: { errors: [{ errorKey: 'invalid_scope', parameter: 'scope', message: expect.any(String) }] },
    });
    // The refused refresh left the refresh token usable.
    const narrower = await token.refresh({ scope: 'asset:locations' }, from());
    expect(jwt.decode(narrower.token.access_token as string)).toMatchObject({ scope: 'asset:locations' });
    expect((await get('admin/roles', narrower.token.access_token as string)).status).toBe(403);
  });

  it('refuses a scope beyond the role with 400 invalid_scope, and a malformed one too', async () => {
    for (const scope of ['*', 'control:commands', 'asset admin', 'Not A Permission']) {
      const refused = await refusal(
        userClient().getToken(
          { username: 'ops@acme.test', password: PASSWORD, tenant: 'acme', scope },
          from(),
        ),
      );
      expect([scope, refused]).toEqual([
        scope,
        {
          status: 400,
          body: { errors: [{ errorKey: 'invalid_scope', parameter: 'scope', message: expect.any(String) }] },
        },
      ]);
    }
  });

  it('refuses client credentials in both the header and the body with 400', async () => {
    const response = await api.call('POST', '/api/v1/oauth/token', {
      form: {
        grant_type: 'client_credentials',
        client_id: apiKey.public_key,
        client_secret: apiKey.private_key,
      },
      headers: {
        'x-forwarded-for': address,
        authorization: `Basic ${Buffer.from(`${apiKey.public_key}:${apiKey.private_key}`).toString('base64')}`,
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.objectContaining({ parameter: 'client_id' })]);
    const missing = await api.call('POST', '/api/v1/oauth/token', {
      form: { grant_type: 'client_credentials' },
      headers: { 'x-forwarded-for': address },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((issue: { parameter: string }) => issue.parameter).sort()).toEqual([
      'client_id',
      'client_secret',
    ]);
  });

  it('answers client credentials that fail as HTTP Basic with 401 and a Basic challenge (RFC 6749 §5.2)', async () => {
    const key = await platform.admin(['apikey:create', '--tenant', 'acme', '--role', 'operator']);
    const basic = (secret: string) =>
      `Basic ${Buffer.from(`${key.public_key}:${secret}`).toString('base64')}`;
    const byBasic = (secret: string) =>
      api.call('POST', '/api/v1/oauth/token', {
        form: { grant_type: 'client_credentials' },
        headers: { 'x-forwarded-for': address, authorization: basic(secret) },
      });
    const refused = await byBasic('sk_wrong-secret');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Basic realm="charging-platform-core"');
    expect(refused.body).toEqual({ error: 'invalid credentials' });
    // Sent in the body, the credentials used no HTTP authentication scheme: no Basic challenge.
    const inBody = await api.call('POST', '/api/v1/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: key.public_key, client_secret: 'sk_wrong-secret' },
      headers: { 'x-forwarded-for': address },
    });
    expect(inBody.status).toBe(401);
    expect(inBody.headers.get('www-authenticate') ?? '').not.toMatch(/^Basic/);
    expect((await byBasic(key.private_key)).status).toBe(200);
  });

  it('ignores unknown fields on the token endpoint, as RFC 6749 asks', async () => {
    const response = await api.call('POST', '/api/v1/oauth/token', {
      body: { username: 'ops@acme.test', password: PASSWORD, tenant: 'acme', audience: 'x', nonce: 1 },
      headers: { 'x-forwarded-for': address },
    });
    expect(response.status).toBe(200);
  });

  it("answers a uuid that is not the tenant's with 400 on uuid, a malformed one with invalid_uuid", async () => {
    const login = { username: 'ops@acme.test', password: PASSWORD, tenant: 'acme' };
    const call = (body: Record<string, unknown>) =>
      api.call('POST', '/api/v1/oauth/token', { body, headers: { 'x-forwarded-for': address } });
    const other = await call({ ...login, uuid: '8d3c4c0a-6a4f-4b8e-9b5e-0c2d3f4a5b6c' });
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual([
      { errorKey: 'invalid_value', parameter: 'uuid', message: expect.stringContaining('tenant') },
    ]);
    const malformed = await call({ ...login, uuid: 'not-a-uuid' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([
      { errorKey: 'invalid_uuid', parameter: 'uuid', message: expect.any(String) },
    ]);
    // With wrong credentials the uuid is not looked at: the same 401 as any failed login.
    const wrong = await call({
      ...login,
      password: 'wrong-password',
      uuid: '8d3c4c0a-6a4f-4b8e-9b5e-0c2d3f4a5b6c',
    });
    expect(wrong.status).toBe(401);
    const own = await call({ ...login, uuid: tenant.uuid.toUpperCase() });
    expect(jwt.decode(own.body.access_token)).toMatchObject({ data: { uuid: tenant.uuid } });
  });

  it('locks an API key out after failed client_credentials attempts, whichever form they take', async () => {
    const guessed = { ...apiKey, private_key: 'sk_guessed-secret' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < FAILURE_LIMIT; attempt += 1) {
      const client = apiKeyClient(attempt % 2 === 0 ? 'header' : 'body', guessed);
      statuses.push((await refusal(client.getToken({}, from()))).status);
    }
    expect(statuses).toEqual(Array(FAILURE_LIMIT).fill(401));
    // The same account by the spec's form, with the right secret now: locked out all the same.
    const locked = await api.call('POST', '/api/v1/oauth/token', {
      body: { username: apiKey.public_key, password: apiKey.private_key, tenant: 'acme', context: 'apikey' },
      headers: { 'x-forwarded-for': address },
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses a revoked API key and its refresh tokens', async () => {
    const key = await platform.admin(['apikey:create', '--tenant', 'acme', '--role', 'operator']);
    const token = await apiKeyClient('header', key).getToken({}, from());
    await platform.admin(['apikey:revoke', '--tenant', 'acme', '--public-key', key.public_key]);
    expect((await refusal(apiKeyClient('header', key).getToken({}, from()))).status).toBe(401);
    expect((await refusal(token.refresh({}, from()))).status).toBe(401);
  }, 90_000);
});
