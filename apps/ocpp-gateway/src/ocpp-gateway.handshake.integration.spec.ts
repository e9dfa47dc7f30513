import 'reflect-metadata';
import { Registry } from 'prom-client';
import WebSocket from 'ws';
import { eventually, upgradeStatus } from '@cpc/testing';
import { ConcurrentHandshakesLimiter } from './handshake/concurrent-handshakes.limiter.js';
import { WEBSOCKET_OPEN } from './ocpp-rpc/ocpp-rpc.js';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayTestRig,
} from './testing/ocpp-gateway-test-bed.js';

const PASSWORD = 'correct-horse-battery-1';
/** Every credential failure looks the same from outside: 401, the bare status text. */
const unauthorized = { status: 401, body: 'Unauthorized' };

describe('ocpp-gateway: the WebSocket handshake', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let controller: FakeController;

  beforeAll(async () => {
    rig = await startGatewayTestRig();
    ({ gateway, services } = rig);
    controller = services.addController({ tenantSlug: 'acme', identity: 'CP-1', password: PASSWORD });
    services.addTenant('other');
  });

  afterAll(async () => {
    await rig?.stop();
  });

  it('accepts a registered controller with its password', async () => {
    await expect(
      upgradeStatus(gateway.ocppPort, { path: '/ocpp/acme/CP-1', basicAuth: `CP-1:${PASSWORD}` }),
    ).resolves.toEqual({
      status: 101,
      body: '',
    });
  });

  it.each([
    ['an unknown tenant', '/ocpp/nobody/CP-1', `CP-1:${PASSWORD}`],
    ['a tenant the controller does not belong to', '/ocpp/other/CP-1', `CP-1:${PASSWORD}`],
    ['an unknown identity', '/ocpp/acme/CP-404', `CP-404:${PASSWORD}`],
    ['a wrong password', '/ocpp/acme/CP-1', 'CP-1:wrong-password-000000'],
    ['no password', '/ocpp/acme/CP-1', undefined],
    ['a Basic user name other than the identity', '/ocpp/acme/CP-1', `CP-2:${PASSWORD}`],
  ])('refuses %s with 401 before a socket opens', async (_case, path, basicAuth) => {
    await expect(upgradeStatus(gateway.ocppPort, { path, basicAuth })).resolves.toEqual(unauthorized);
  });

  it.each([
    ['a path outside /ocpp', '/other/acme/CP-1'],
    ['a path without tenant', '/ocpp/CP-1'],
    ['a path with extra segments', '/ocpp/acme/CP-1/more'],
    ['a malformed escape', '/ocpp/acme/CP%E0%A4%A'],
  ])('answers %s with 404', async (_case, path) => {
    await expect(
      upgradeStatus(gateway.ocppPort, { path, basicAuth: `CP-1:${PASSWORD}` }),
    ).resolves.toMatchObject({ status: 404 });
  });

  it('refuses a charge point that offers no supported subprotocol', async () => {
    await expect(
      upgradeStatus(gateway.ocppPort, {
        path: '/ocpp/acme/CP-1',
        basicAuth: `CP-1:${PASSWORD}`,
        protocols: ['ocpp1.5', 'ocpp2.1'],
      }),
    ).resolves.toMatchObject({ status: 400 });
  });

  it("follows the charge point's order of preference among the protocols it offers", async () => {
    for (const protocols of [
      ['ocpp1.6', 'ocpp2.0.1'],
      ['ocpp2.0.1', 'ocpp1.6'],
      ['ocpp2.1', 'ocpp1.6', 'ocpp2.0.1'],
    ]) {
      const cp = chargePoint({ port: gateway.ocppPort, controller, protocols });
      await cp.connect();
      expect(cp.protocol).toBe(protocols.find((protocol) => protocol !== 'ocpp2.1'));
      await cp.close();
    }
  });

  it('answers plain HTTP on the OCPP port with 404', async () => {
    const response = await fetch(`http://127.0.0.1:${gateway.ocppPort}/ocpp/acme/CP-1`);
    expect(response.status).toBe(404);
  });
});

describe('ocpp-gateway: forwarded headers only from TRUSTED_PROXIES', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let station: FakeController;
  const INGRESS = '127.0.0.2';
  const STRANGER = '127.0.0.3';
  /** What the ingress adds for the real profile 3 station after verifying its certificate. */
  const certificateHeaders = (dn: string) => ({
    'x-forwarded-proto': 'https',
    'ssl-client-verify': 'SUCCESS',
    'ssl-client-subject-dn': dn,
  });

  beforeAll(async () => {
    rig = await startGatewayTestRig({ TRUSTED_PROXIES: `${INGRESS}/32` });
    ({ gateway, services } = rig);
    station = services.addController({ tenantSlug: 'acme', identity: 'CP-3', securityProfile: 3 });
    services.addController({ tenantSlug: 'other', identity: 'CP-3', securityProfile: 3 });
    services.addController({ tenantSlug: 'acme', identity: 'CP-2', password: PASSWORD, securityProfile: 2 });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  it("refuses certificate headers a client wrote itself, and the real station's socket stays", async () => {
    const real = chargePoint({
      port: gateway.ocppPort,
      controller: station,
      protocols: ['ocpp1.6'],
      localAddress: INGRESS,
      headers: certificateHeaders('CN=CP-3,O=acme'),
    });
    await real.connect();
    for (const dn of ['CN=CP-3,O=acme', '/O=acme/CN=CP-3']) {
      await expect(
        upgradeStatus(gateway.ocppPort, {
          path: '/ocpp/acme/CP-3',
          localAddress: STRANGER,
          headers: certificateHeaders(dn),
        }),
      ).resolves.toEqual(unauthorized);
    }
    expect(real.state).toBe(WEBSOCKET_OPEN);
    await expect(real.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
    await real.close();
  });

  it('binds the certificate to the tenant: O must be the slug of the URL', async () => {
    const attempt = (path: string, dn: string) =>
      upgradeStatus(gateway.ocppPort, { path, localAddress: INGRESS, headers: certificateHeaders(dn) });
    await expect(attempt('/ocpp/other/CP-3', 'CN=CP-3,O=acme')).resolves.toEqual(unauthorized);
    await expect(attempt('/ocpp/other/CP-3', 'CN=CP-3')).resolves.toEqual(unauthorized);
    await expect(attempt('/ocpp/other/CP-3', 'CN=CP-3,O=other,O=acme')).resolves.toEqual(unauthorized);
    await expect(attempt('/ocpp/other/CP-3', 'CN=CP-3\\,O=other')).resolves.toEqual(unauthorized);
    await expect(attempt('/ocpp/other/CP-3', 'CN=CP-3,O=other')).resolves.toMatchObject({ status: 101 });
  });

  it('believes X-Forwarded-Proto and X-Forwarded-For from the ingress only', async () => {
    const attempt = (localAddress: string) =>
      upgradeStatus(gateway.ocppPort, {
        path: '/ocpp/acme/CP-2',
        basicAuth: `CP-2:${PASSWORD}`,
        localAddress,
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '1.1.1.1, 198.51.100.7' },
      });
    await expect(attempt(STRANGER)).resolves.toEqual(unauthorized);
    expect(services.authenticateRequests.at(-1)?.remoteAddress).toBe(STRANGER);
    await expect(attempt(INGRESS)).resolves.toMatchObject({ status: 101 });
    // The address the ingress appended, not what the client wrote in front of it.
    expect(services.authenticateRequests.at(-1)?.remoteAddress).toBe('198.51.100.7');
  });
});

describe('ocpp-gateway: limits of the handshake', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;

  beforeAll(async () => {
    rig = await startGatewayTestRig({
      OCPP_MAX_CONCURRENT_HANDSHAKES_PER_ADDRESS: '3',
      OCPP_MAX_CONCURRENT_HANDSHAKES: '5',
      OCPP_MAX_WAITING_HANDSHAKES: '1',
      NATS_REQUEST_TIMEOUT_MS: '2000',
    });
    ({ gateway, services } = rig);
    services.addController({ tenantSlug: 'acme', identity: 'CP-1', password: PASSWORD });
    services.addController({ tenantSlug: 'acme', identity: 'CP-LIMITED', password: PASSWORD });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  const attempt = (localAddress: string, identity = 'CP-1') =>
    upgradeStatus(gateway.ocppPort, {
      path: `/ocpp/acme/${identity}`,
      basicAuth: `${identity}:${PASSWORD}`,
      localAddress,
    });

  it('answers 429 when assets-service says the failures of that identity are used up', async () => {
    services.rateLimitedIdentities.add('cp-limited');
    await expect(attempt('127.0.0.2', 'CP-LIMITED')).resolves.toEqual({
      status: 429,
      body: 'Too Many Requests',
    });
    services.rateLimitedIdentities.clear();
    await expect(attempt('127.0.0.2', 'CP-LIMITED')).resolves.toMatchObject({ status: 101 });
  });

  it('refuses beyond the handshakes per address (429) at once; beyond the total, waits, then 503', async () => {
    const limiter = gateway.app.get(ConcurrentHandshakesLimiter);
    services.answering = false;
    const held = [attempt('127.0.0.2'), attempt('127.0.0.2'), attempt('127.0.0.2')];
    await eventually(() => limiter.inProgress === 3, Boolean, { timeoutMs: 5000, intervalMs: 20 });
    await expect(attempt('127.0.0.2')).resolves.toMatchObject({ status: 429 });
    held.push(attempt('127.0.0.3'), attempt('127.0.0.3'));
    await eventually(() => limiter.inProgress === 5, Boolean, { timeoutMs: 5000, intervalMs: 20 });
    // The sixth waits for a place; the seventh finds the queue (one place here) full.
    const waiting = attempt('127.0.0.4');
    await eventually(() => limiter.waiting === 1, Boolean, { timeoutMs: 5000, intervalMs: 20 });
    const gauge = await gateway.app.get(Registry).getSingleMetricAsString('ocpp_handshakes');
    expect(gauge).toContain('ocpp_handshakes{state="checking"} 5');
    expect(gauge).toContain('ocpp_handshakes{state="waiting"} 1');
    await expect(attempt('127.0.0.5')).resolves.toMatchObject({ status: 503 });
    // The held ones end when their question to assets-service times out and give their places back: the waiting
    // one is checked then, and assets-service answers it.
    services.answering = true;
    expect((await Promise.all(held)).map((outcome) => outcome.status)).toEqual([503, 503, 503, 503, 503]);
    await expect(waiting).resolves.toMatchObject({ status: 101 });
    expect(limiter.inProgress).toBe(0);
    expect(limiter.waiting).toBe(0);
    await expect(attempt('127.0.0.2')).resolves.toMatchObject({ status: 101 });
  });

  it('announces no Server header (no library or version) on an accepted or a refused upgrade', async () => {
    const headersOf = (basicAuth: string) =>
      new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${gateway.ocppPort}/ocpp/acme/CP-1`, ['ocpp1.6'], {
          headers: { authorization: `Basic ${Buffer.from(basicAuth).toString('base64')}` },
        });
        socket.on('upgrade', (response) => {
          resolve({ status: 101, headers: response.headers });
          socket.once('open', () => socket.close());
        });
        socket.on('unexpected-response', (_request, response) => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers });
          response.resume();
        });
        socket.on('error', (error) => {
          if (!/Unexpected server response/.test(error.message)) reject(error);
        });
      });
    const accepted = await headersOf(`CP-1:${PASSWORD}`);
    const refused = await headersOf('CP-1:wrong-password-000000');
    expect([accepted.status, refused.status]).toEqual([101, 401]);
    expect(accepted.headers).not.toHaveProperty('server');
    expect(refused.headers).not.toHaveProperty('server');
  });
});

describe('ocpp-gateway: the handshake when a service it asks is down', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;

  beforeAll(async () => {
    rig = await startGatewayTestRig({
      OCPP_TENANT_CACHE_TTL_MS: '0',
      NATS_REQUEST_TIMEOUT_MS: '300',
    });
    ({ gateway, services } = rig);
    services.addController({ tenantSlug: 'acme', identity: 'CP-1', password: PASSWORD });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  it('answers 503 (try again) rather than 401, and does not count it as a failed attempt', async () => {
    services.answering = false;
    for (let attempt = 0; attempt < 12; attempt++) {
      await expect(
        upgradeStatus(gateway.ocppPort, { path: '/ocpp/acme/CP-1', basicAuth: `CP-1:${PASSWORD}` }),
      ).resolves.toMatchObject({
        status: 503,
      });
    }
    services.answering = true;
    await expect(
      upgradeStatus(gateway.ocppPort, { path: '/ocpp/acme/CP-1', basicAuth: `CP-1:${PASSWORD}` }),
    ).resolves.toMatchObject({
      status: 101,
    });
  });
});

describe('ocpp-gateway: tenant look-ups', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_TENANT_CACHE_TTL_MS: '60000' });
    ({ gateway, services } = rig);
  });

  afterAll(async () => {
    await rig?.stop();
  });

  it('asks auth-service once per tenant slug while the answer is cached', async () => {
    const controllers = Array.from({ length: 10 }, (_, index) =>
      services.addController({ tenantSlug: 'cached', identity: `CP-${index}`, password: PASSWORD }),
    );
    const before = services.tenantLookups;
    const chargePoints = controllers.map((controller) =>
      chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp1.6'] }),
    );
    await Promise.all(chargePoints.map((cp) => cp.connect()));
    expect(services.tenantLookups - before).toBe(1);
    await Promise.all(chargePoints.map((cp) => cp.close()));
  });
});
