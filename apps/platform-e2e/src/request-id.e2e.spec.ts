import { randomUUID } from 'node:crypto';
import { ApiTestClient, eventually, type PlatformUnderTest, startPlatformUnderTest } from '@cpc/testing';

const PASSWORD = 'correct-horse-9';

/**
 * A request id set at the HTTP edge (the caller's `X-Request-Id`, or one the api-gateway makes up) reaches the log
 * lines of the service that handles the request behind NATS. The log line used: auth-service's warning when a used
 * refresh token comes back, written while it handles the token request.
 */
describe('request id from HTTP to the log lines of the services behind NATS', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({ services: ['auth-service', 'api-gateway'] });
    api = await ApiTestClient.connect(platform.apiUrl);
    await platform.admin(['tenant:create', '--slug', 'acme']);
    await platform.admin(['role:create', '--tenant', 'acme', '--name', 'reader', '--permissions', 'asset']);
    await platform.admin([
      ...['user:create', '--tenant', 'acme', '--email', 'reader@acme.test'],
      ...['--password', PASSWORD, '--role', 'reader'],
    ]);
  }, 180_000);

  afterAll(() => platform?.stop());

  /** Presents a refresh token a second time, which auth-service logs; answers the id the response carried. */
  async function replayRefreshToken(headers: Record<string, string>): Promise<string> {
    const pair = await api.call('POST', '/api/v1/oauth/token', {
      body: { username: 'reader@acme.test', password: PASSWORD, tenant: 'acme' },
    });
    const refresh = { grant_type: 'refresh_token', refresh_token: pair.body.refresh_token };
    expect((await api.call('POST', '/api/v1/oauth/token', { body: refresh })).status).toBe(200);
    const replay = await api.call('POST', '/api/v1/oauth/token', { body: refresh, headers });
    expect(replay.status).toBe(401);
    return replay.headers.get('x-request-id')!;
  }

  /** auth-service's JSON log lines that carry this request id. */
  const authServiceLinesOf = async (requestId: string) =>
    eventually(
      () =>
        Promise.resolve(
          platform
            .service('auth-service')
            .output()
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .filter((line) => line.requestId === requestId),
        ),
      (lines) => lines.length > 0,
    );

  it("carries the caller's X-Request-Id into auth-service's log lines", async () => {
    const requestId = `trace-${randomUUID()}`;
    expect(await replayRefreshToken({ 'x-request-id': requestId })).toBe(requestId);
    const lines = await authServiceLinesOf(requestId);
    expect(lines).toEqual([
      expect.objectContaining({
        service: 'auth-service',
        level: 40,
        msg: expect.stringMatching(/^refresh token reuse detected; family [0-9a-f-]{36} revoked$/),
      }),
    ]);
  });

  it('makes up an id when the caller sends none, or one that is not a plain token, and logs with that one', async () => {
    const unusable: Record<string, string>[] = [{}, { 'x-request-id': 'no spaces or quotes "please"' }];
    for (const headers of unusable) {
      const generated = await replayRefreshToken(headers);
      expect(generated).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await authServiceLinesOf(generated)).toEqual([
        expect.objectContaining({ msg: expect.stringContaining('refresh token reuse detected') }),
      ]);
    }
  });
});
