import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  AuthSubjects,
  ErrorCode,
  type IssueTokenRequest,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { FakeServiceError, type NatsTestServer, startNatsTestServer } from '@cpc/testing';
import {
  AuthServiceStandIn,
  type RunningApiGateway,
  signAccessToken,
  standInFor,
  startApiGatewayProcess,
  startApiGatewayReplica,
  testConnection,
  type TestSigningKey,
  testSigningKey,
  controlTheDate,
} from '../testing/api-gateway-test-bed.js';

const LOCATION = '22222222-2222-4222-8222-222222222222';
const LIMIT = 5;

const getLocation = (gateway: RunningApiGateway, token: string) =>
  fetch(`${gateway.url}/api/v1/assets/locations/${LOCATION}`, {
    headers: { authorization: `Bearer ${token}` },
  }).then(async (response) => ({
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.json(),
  }));

/** Real NATS; auth-service and assets-service played by stand-ins; every request over a real socket. */
describe('rate limits under concurrency', () => {
  let nats: NatsTestServer;
  let connection: NatsConnection;
  let auth: AuthServiceStandIn;
  let key: TestSigningKey;
  let gatewayA: RunningApiGateway;
  let gatewayB: RunningApiGateway;
  let tokenRequests: ReturnType<typeof standInFor<IssueTokenRequest>>;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    connection = await testConnection(nats.url);
    auth = new AuthServiceStandIn(connection);
    key = testSigningKey();
    auth.keys = [key];
    await auth.start();
    standInFor<TenantScopedRequest<unknown>>(connection, AssetsSubjects.getLocation, () => undefined);
    tokenRequests = standInFor<IssueTokenRequest>(connection, AuthSubjects.issueToken, () => {
      throw new FakeServiceError(ErrorCode.Unauthorized, 'invalid credentials');
    });
    await connection.flush();
    const env = { API_RATE_LIMIT_PER_SUBJECT: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '3600' };
    // Two replicas behind one ingress: A in this process, B a process of its own.
    [gatewayA, gatewayB] = await Promise.all([
      startApiGatewayReplica(nats.url, env),
      startApiGatewayProcess(nats.url, env),
    ]);
  });

  afterAll(async () => {
    await Promise.all([gatewayA?.close(), gatewayB?.close()]);
    auth?.stop();
    await connection?.close();
    await nats?.stop();
  });

  it('lets exactly the limit of a subject’s simultaneous requests through one replica and refuses the rest with 429', async () => {
    const token = signAccessToken(key, { sub: randomUUID() });

    const answers = await Promise.all(Array.from({ length: LIMIT * 4 }, () => getLocation(gatewayA, token)));

    expect(answers.filter(({ status }) => status === 404)).toHaveLength(LIMIT);
    const refused = answers.filter(({ status }) => status !== 404);
    expect(refused).toHaveLength(LIMIT * 3);
    for (const answer of refused) {
      expect(answer).toMatchObject({ status: 429, body: { error: expect.any(String) } });
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
  });

  // Both replicas lease from the one budget in NATS KV (SharedWindowRateLimiter).
  it('holds a subject’s limit across two replicas: the limit in total, not per replica', async () => {
    const token = signAccessToken(key, { sub: randomUUID() });

    const answers = await Promise.all(
      Array.from({ length: LIMIT * 4 }, (_, index) => getLocation(index % 2 ? gatewayA : gatewayB, token)),
    );

    expect(answers.filter(({ status }) => status === 404)).toHaveLength(LIMIT);
  });

  it('gives auth-service the TCP peer as the client address of concurrent token requests on both replicas, whatever X-Forwarded-For says', async () => {
    const first = tokenRequests.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fetch(`${(index % 2 ? gatewayA : gatewayB).url}/api/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${index}` },
          body: JSON.stringify({ username: 'user@acme.test', password: 'wrong-password', tenant: 'acme' }),
        }).then(async (response) => ({ status: response.status, body: await response.json() })),
      ),
    );

    expect(answers).toEqual(answers.map(() => ({ status: 401, body: { error: 'invalid credentials' } })));
    const addresses = new Set(tokenRequests.requests.slice(first).map(({ clientAddress }) => clientAddress));
    expect(tokenRequests.requests.length - first).toBe(20);
    expect([...addresses]).toEqual(['127.0.0.1']);
  });
});

/**
 * The window's edge, with the process's Date under the test's control (set before the gateway starts: the limiter
 * keeps the Date.now it was built with). Timers stay real, so NATS and HTTP run as ever.
 */
describe('the rate limit window’s edge', () => {
  let nats: NatsTestServer;
  let connection: NatsConnection;
  let auth: AuthServiceStandIn;
  let key: TestSigningKey;
  let gateway: RunningApiGateway;
  const start = Date.parse('2031-01-01T00:00:00.000Z');

  beforeAll(async () => {
    controlTheDate(start);
    nats = await startNatsTestServer();
    connection = await testConnection(nats.url);
    auth = new AuthServiceStandIn(connection);
    key = testSigningKey();
    auth.keys = [key];
    await auth.start();
    standInFor<TenantScopedRequest<unknown>>(connection, AssetsSubjects.getLocation, () => undefined);
    await connection.flush();
    gateway = await startApiGatewayReplica(nats.url, {
      API_RATE_LIMIT_PER_SUBJECT: String(LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
  });

  afterAll(async () => {
    await gateway?.close();
    auth?.stop();
    await connection?.close();
    await nats?.stop();
    jest.useRealTimers();
  });

  it('refuses until the window’s last millisecond with the seconds left, and opens a full new window at its end', async () => {
    const token = signAccessToken(key, { sub: randomUUID(), iat: start / 1000, exp: start / 1000 + 86_400 });
    const burst = await Promise.all(Array.from({ length: LIMIT + 3 }, () => getLocation(gateway, token)));
    expect(burst.filter(({ status }) => status === 404)).toHaveLength(LIMIT);

    jest.setSystemTime(start + 59_999);
    await expect(getLocation(gateway, token)).resolves.toMatchObject({ status: 429, retryAfter: '1' });

    jest.setSystemTime(start + 60_000);
    const next = await Promise.all(Array.from({ length: LIMIT + 3 }, () => getLocation(gateway, token)));
    expect(next.filter(({ status }) => status === 404)).toHaveLength(LIMIT);
    expect(next.filter(({ status }) => status === 429)).toHaveLength(3);
    expect(next.find(({ status }) => status === 429)?.retryAfter).toBe('60');
  });
});
