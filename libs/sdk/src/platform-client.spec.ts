import { type ScriptedAnswer, type ScriptedRequest, ScriptedHttpServer } from '@cpc/testing';
import { TokenRequestError } from './access-tokens.js';
import { createPlatformClient } from './platform-client.js';

const credentials = { username: 'ops@example.com', password: 'secret-password', tenant: 'acme' };

/** A platform stand-in: the token endpoint issues numbered tokens that expire in `expiresIn` s; `api` answers the rest. */
function platformScript(
  api: (request: ScriptedRequest) => ScriptedAnswer,
  token: (body: Record<string, string>, issued: number) => ScriptedAnswer | undefined = () => undefined,
  expiresIn = 3600,
) {
  let issued = 0;
  return (request: ScriptedRequest): ScriptedAnswer => {
    if (request.url !== '/api/v1/oauth/token') return api(request);
    const body = JSON.parse(request.body) as Record<string, string>;
    const scripted = token(body, issued);
    if (scripted) return scripted;
    issued++;
    return {
      status: 200,
      body: {
        access_token: `access-${issued}`,
        refresh_token: `refresh-${issued}`,
        token_type: 'Bearer',
        expires_in: expiresIn,
      },
    };
  };
}

const grants = (server: ScriptedHttpServer) =>
  server.requests
    .filter((request) => request.url === '/api/v1/oauth/token')
    .map((request) => (JSON.parse(request.body) as { grant_type: string }).grant_type);
const bearers = (server: ScriptedHttpServer) =>
  server.requests
    .filter((request) => request.url !== '/api/v1/oauth/token')
    .map((request) => request.headers.authorization);

describe('createPlatformClient', () => {
  let server: ScriptedHttpServer;
  afterEach(() => server.close());

  it('logs in once for concurrent requests and sends the token as a bearer', async () => {
    server = await ScriptedHttpServer.start(platformScript(() => ({ status: 200, body: { location: {} } })));
    const client = createPlatformClient({ baseUrl: server.url, credentials });
    const uuid = '5b0c4a55-3bd5-4a8e-9f0e-3b3f7a1f6f10';
    await Promise.all(
      [1, 2, 3].map(() => client.api.GET('/api/v1/assets/locations/{uuid}', { params: { path: { uuid } } })),
    );
    expect(grants(server)).toEqual(['password']);
    expect(bearers(server)).toEqual(['Bearer access-1', 'Bearer access-1', 'Bearer access-1']);
    expect(JSON.parse(server.requests[0].body)).toEqual({ grant_type: 'password', ...credentials });
  });

  it('renews with the refresh token before the access token expires', async () => {
    let now = 1_000_000;
    server = await ScriptedHttpServer.start(
      platformScript(() => ({ status: 200, body: { locations: [] } }), undefined, 300),
    );
    const client = createPlatformClient({
      baseUrl: server.url,
      credentials,
      refreshMarginSeconds: 60,
      now: () => now,
    });
    await client.api.GET('/api/v1/assets/locations');
    now += 239_000; // 61 s before expiry: still the first token
    await client.api.GET('/api/v1/assets/locations');
    now += 2_000; // within the margin: renewed first
    await client.api.GET('/api/v1/assets/locations');
    expect(grants(server)).toEqual(['password', 'refresh_token']);
    expect(bearers(server)).toEqual(['Bearer access-1', 'Bearer access-1', 'Bearer access-2']);
    const refresh = server.requests.find((request) => request.body.includes('refresh_token"'))!;
    expect(JSON.parse(refresh.body)).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
  });

  it('logs in again when the refresh token is refused', async () => {
    let now = 0;
    server = await ScriptedHttpServer.start(
      platformScript(
        () => ({ status: 200, body: { locations: [] } }),
        (body) =>
          body.grant_type === 'refresh_token'
            ? { status: 401, body: { error: 'invalid credentials' } }
            : undefined,
        120,
      ),
    );
    const client = createPlatformClient({ baseUrl: server.url, credentials, now: () => now });
    await client.api.GET('/api/v1/assets/locations');
    now += 100_000;
    await client.api.GET('/api/v1/assets/locations');
    expect(grants(server)).toEqual(['password', 'refresh_token', 'password']);
    expect(bearers(server)).toEqual(['Bearer access-1', 'Bearer access-2']);
  });

  it('gets a new token once when the API refuses the current one (revoked), then repeats the request', async () => {
    server = await ScriptedHttpServer.start(
      platformScript((request) =>
        request.headers.authorization === 'Bearer access-1'
          ? { status: 401, body: { error: 'unauthorized' } }
          : { status: 202, body: { command: { uuid: 'c' } } },
      ),
    );
    const client = createPlatformClient({ baseUrl: server.url, credentials });
    const created = await client.createCommand(
      'change_availability',
      { target_type: 'controller', target_uuid: '5b0c4a55-3bd5-4a8e-9f0e-3b3f7a1f6f10' },
      { availability: 'inoperative' },
      { valid_for_seconds: 60, idempotencyKey: 'k-1' },
    );
    expect(created.response.status).toBe(202);
    expect(bearers(server)).toEqual(['Bearer access-1', 'Bearer access-2']);
    const posts = server.requests.filter((request) => request.url === '/api/v1/control/commands');
    expect(posts.map((request) => [JSON.parse(request.body), request.headers['idempotency-key']])).toEqual([
      [expected(), 'k-1'],
      [expected(), 'k-1'],
    ]);
    function expected() {
      return {
        type: 'change_availability',
        target_type: 'controller',
        target_uuid: '5b0c4a55-3bd5-4a8e-9f0e-3b3f7a1f6f10',
        parameters: { availability: 'inoperative' },
        valid_for_seconds: 60,
      };
    }
  });

  it('retries a 429 from the API honouring Retry-After, with the same token', async () => {
    const waits: number[] = [];
    let answered = 0;
    server = await ScriptedHttpServer.start(
      platformScript(() =>
        answered++ === 0
          ? { status: 429, headers: { 'retry-after': '1' } }
          : { status: 200, body: { locations: [] } },
      ),
    );
    const client = createPlatformClient({
      baseUrl: server.url,
      credentials,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    const { response } = await client.api.GET('/api/v1/assets/locations');
    expect([response.status, waits, bearers(server)]).toEqual([
      200,
      [1000],
      ['Bearer access-1', 'Bearer access-1'],
    ]);
  });

  it('reports a refused login as a TokenRequestError with the answer', async () => {
    server = await ScriptedHttpServer.start(
      platformScript(
        () => ({ status: 200 }),
        () => ({ status: 401, body: { error: 'invalid credentials' } }),
      ),
    );
    const client = createPlatformClient({ baseUrl: server.url, credentials });
    const failure = await client.api.GET('/api/v1/assets/locations').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TokenRequestError);
    expect(failure).toMatchObject({ status: 401, body: { error: 'invalid credentials' } });
  });
});
