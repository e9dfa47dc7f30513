import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type AccountsRevokedEvent,
  AssetsSubjects,
  AuthSubjects,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { eventually, type NatsTestServer, startNatsTestServer } from '@cpc/testing';
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

/**
 * Two api-gateway replicas on one real NATS server (A in this process, B a process of its own); auth-service and
 * assets-service played by stand-ins on the test's own connection. Every request goes over a real socket.
 */
describe('bearer verification under concurrency (two replicas, real NATS)', () => {
  let nats: NatsTestServer;
  let connection: NatsConnection;
  let auth: AuthServiceStandIn;
  let key: TestSigningKey;
  let gatewayA: RunningApiGateway;
  let gatewayB: RunningApiGateway;
  let assets: ReturnType<typeof standInFor<TenantScopedRequest<{ uuid: string }>>>;

  const getLocation = (gateway: RunningApiGateway, token: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/api/v1/assets/locations/${LOCATION}`, {
      headers: { authorization: `Bearer ${token}`, ...headers },
    }).then(async (response) => ({ status: response.status, body: await response.json() }));

  beforeAll(async () => {
    nats = await startNatsTestServer();
    connection = await testConnection(nats.url);
    auth = new AuthServiceStandIn(connection);
    key = testSigningKey();
    auth.keys = [key];
    await auth.start();
    // Not found: the request passed authentication, permission and the rate limit, and reached assets-service.
    assets = standInFor(connection, AssetsSubjects.getLocation, () => undefined);
    await connection.flush();
    [gatewayA, gatewayB] = await Promise.all([
      startApiGatewayReplica(nats.url, { UNKNOWN_KID_REFETCH_INTERVAL_SECONDS: '3600' }),
      startApiGatewayProcess(nats.url, { UNKNOWN_KID_REFETCH_INTERVAL_SECONDS: '3600' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([gatewayA?.close(), gatewayB?.close()]);
    auth?.stop();
    assets?.subscription.unsubscribe();
    await connection?.close();
    await nats?.stop();
  });

  it('refetches the signing keys once for a storm of tokens with one unknown kid, and refuses them all with 401', async () => {
    await expect(getLocation(gatewayA, signAccessToken(key))).resolves.toMatchObject({ status: 404 });
    const before = auth.signingKeyFetches;
    const stranger = signAccessToken(testSigningKey());

    const answers = await Promise.all(Array.from({ length: 40 }, () => getLocation(gatewayA, stranger)));

    expect(answers.every(({ status }) => status === 401)).toBe(true);
    expect(answers[0].body).toEqual({ error: 'access token signed with an unknown or revoked key' });
    expect(auth.signingKeyFetches - before).toBe(1);
  });

  // A key added at auth-service (a rotation whose broadcast this replica missed): the first request with the new kid
  // starts the one refetch; the others arriving while it is in flight wait for it instead of being refused.
  it('accepts every concurrent request with a newly added key once the one refetch brings it', async () => {
    await expect(getLocation(gatewayB, signAccessToken(key))).resolves.toMatchObject({ status: 404 });
    const rotated = testSigningKey();
    auth.keys = [key, rotated];
    let release!: () => void;
    auth.holdSigningKeys = new Promise<void>((resolve) => (release = resolve));
    const before = auth.signingKeyFetches;
    const token = signAccessToken(rotated);

    const pending = Array.from({ length: 20 }, () => getLocation(gatewayB, token));
    // Released only once the refetch reached auth-service, so the requests overlap with it.
    await eventually(
      () => Promise.resolve(auth.signingKeyFetches),
      (fetches) => fetches > before,
    );
    release();
    const answers = await Promise.all(pending);
    auth.holdSigningKeys = undefined;

    expect(auth.signingKeyFetches - before).toBe(1);
    expect(answers.map(({ status }) => status)).toEqual(answers.map(() => 404));
  });

  it('refuses a revoked token on both replicas once the broadcast arrives, cached or not, and never again accepts it', async () => {
    const subject = randomUUID();
    const issuedAt = Math.floor(Date.now() / 1000) - 10;
    const token = signAccessToken(key, { sub: subject, iat: issuedAt });
    // Cached as verified on A; B sees it only after the revocation.
    await expect(getLocation(gatewayA, token)).resolves.toMatchObject({ status: 404 });

    const revocation: AccountsRevokedEvent = { revocations: [{ subject, notBefore: issuedAt + 1 }] };
    // Requests race the broadcast; once one replica refused, every later request on it is refused too.
    const racing = Array.from({ length: 20 }, (_, index) =>
      getLocation(index % 2 ? gatewayA : gatewayB, token),
    );
    connection.publish(AuthSubjects.accountsRevoked, JSON.stringify(revocation));
    await Promise.all(racing);
    for (const gateway of [gatewayA, gatewayB]) {
      await eventually(
        () => getLocation(gateway, token),
        ({ status }) => status === 401,
      );
      const later = await Promise.all(Array.from({ length: 10 }, () => getLocation(gateway, token)));
      expect(later).toEqual(later.map(() => ({ status: 401, body: { error: 'access token revoked' } })));
    }
    // A token issued after the revocation's time works.
    await expect(getLocation(gatewayB, signAccessToken(key, { sub: subject }))).resolves.toMatchObject({
      status: 404,
    });
  });

  it('takes the tenant from the verified token only, whatever the request says', async () => {
    const tenantUuid = '44444444-4444-4444-8444-444444444444';
    const token = signAccessToken(key, { tenant_uuid: tenantUuid, tenant: 'own' });
    const first = assets.requests.length;
    const forged = {
      'x-tenant': 'other',
      'x-tenant-uuid': '55555555-5555-4555-8555-555555555555',
      'x-forwarded-tenant': 'other',
    };

    await expect(getLocation(gatewayA, token, forged)).resolves.toMatchObject({ status: 404 });
    const withQuery = await fetch(
      `${gatewayA.url}/api/v1/assets/locations/${LOCATION}?tenant=other&tenant_uuid=55555555-5555-4555-8555-555555555555`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect([404, 422]).toContain(withQuery.status);

    const principals = assets.requests.slice(first).map(({ principal }) => principal);
    expect(principals.length).toBeGreaterThan(0);
    for (const principal of principals) {
      expect(principal).toMatchObject({ tenantUuid, tenantSlug: 'own' });
    }
  });
});

/**
 * Signing keys past their age limit while auth-service cannot answer, with the process's Date under the test's
 * control (set before the gateway starts: the caches keep the Date.now they were built with; timers stay real).
 */
describe('signing keys past their age while auth-service fails', () => {
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
    standInFor(connection, AssetsSubjects.getLocation, () => undefined);
    await connection.flush();
    gateway = await startApiGatewayReplica(nats.url);
  });

  afterAll(async () => {
    await gateway?.close();
    auth?.stop();
    await connection?.close();
    await nats?.stop();
    jest.useRealTimers();
  });

  const getLocation = (token: string) =>
    fetch(`${gateway.url}/api/v1/assets/locations/${LOCATION}`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((response) => response.status);

  // Once the keys are older than signingKeysMaxAgeMs (5 min) and a refresh fails, the keys held keep verifying and the
  // next refresh waits an interval: a failing (or hung) auth-service is not asked once per request.
  it('keeps verifying with the keys it has and asks a failing auth-service again only after a pause', async () => {
    const tokens = Array.from({ length: 10 }, () =>
      signAccessToken(key, { iat: start / 1000, exp: start / 1000 + 86_400 }),
    );
    await expect(getLocation(tokens[0])).resolves.toBe(404);
    const before = auth.signingKeyFetches;
    auth.failSigningKeys = true;
    // Past the age limit, within the revocation list's staleness bound after its poll (which still answers).
    jest.setSystemTime(start + 5 * 60_000 + 1);

    const statuses: number[] = [];
    for (const token of tokens) statuses.push(await getLocation(token));
    auth.failSigningKeys = false;

    expect(statuses).toEqual(tokens.map(() => 404));
    expect(auth.signingKeyFetches - before).toBeLessThanOrEqual(2);
  });
});
