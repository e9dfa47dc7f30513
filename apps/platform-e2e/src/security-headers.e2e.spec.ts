import { request as httpRequest } from 'node:http';
import { type PlatformUnderTest, startPlatformUnderTest } from '@cpc/testing';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** The compiled api-gateway (no auth-service behind it), over real sockets from distinct loopback addresses. */
describe('security headers on every answer of api-gateway', () => {
  let platform: PlatformUnderTest;
  let port: number;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['api-gateway'],
      env: {
        API_BODY_LIMIT_BYTES: '1024',
        // The proxy whose X-Forwarded-Proto says the client came over HTTPS.
        TRUSTED_PROXIES: '127.0.0.2',
      },
    });
    port = Number(new URL(platform.apiUrl).port);
  }, 180_000);

  afterAll(() => platform?.stop());

  const send = (
    method: string,
    path: string,
    options: { body?: string; headers?: Record<string, string>; from?: string } = {},
  ) =>
    new Promise<Answer>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent: false,
          localAddress: options.from ?? '127.0.0.1',
          headers: {
            ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...options.headers,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
        },
      );
      request.on('error', reject);
      request.end(options.body);
    });

  const expectApiHeaders = (answer: Answer) => {
    expect(answer.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
    expect(answer.headers).not.toHaveProperty('server');
    expect(answer.headers).not.toHaveProperty('x-powered-by');
    expect(answer.headers).not.toHaveProperty('strict-transport-security');
  };

  it('sets them on success, 400, 401, 404, 405 and 413 answers alike', async () => {
    const answers = {
      success: await send('GET', '/health/live'),
      badRequest: await send('POST', '/api/v1/oauth/token', { body: '{}' }),
      unauthorized: await send('GET', '/api/v1/assets/locations'),
      notFound: await send('GET', '/api/v1/no-such-route'),
      methodNotAllowed: await send('PUT', '/api/v1/oauth/token', { body: '{}' }),
      tooLarge: await send('POST', '/api/v1/oauth/token', { body: JSON.stringify({ x: 'y'.repeat(4096) }) }),
    };
    expect(
      Object.fromEntries(Object.entries(answers).map(([kind, answer]) => [kind, answer.status])),
    ).toEqual({
      success: 200,
      badRequest: 400,
      unauthorized: 401,
      notFound: 404,
      methodNotAllowed: 405,
      tooLarge: 413,
    });
    for (const answer of Object.values(answers)) expectApiHeaders(answer);
  });

  it('gives the OpenAPI browser a CSP that lets it load its own scripts', async () => {
    const answer = await send('GET', '/docs');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('adds Strict-Transport-Security only when a trusted proxy reports HTTPS', async () => {
    const viaProxy = await send('GET', '/api/v1/no-such-route', {
      from: '127.0.0.2',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(viaProxy.headers['strict-transport-security']).toBe(`max-age=${365 * 86400}`);
    const claimedByClient = await send('GET', '/api/v1/no-such-route', {
      from: '127.0.0.3',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(claimedByClient.headers).not.toHaveProperty('strict-transport-security');
  });
});
