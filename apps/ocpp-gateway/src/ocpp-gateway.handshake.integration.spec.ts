import 'reflect-metadata';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayTestRig,
  upgradeStatus,
} from './testing/ocpp-gateway-test-bed.js';

const PASSWORD = 'correct-horse-battery-1';

describe('ocpp-gateway: the WebSocket handshake', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let controller: FakeController;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_HANDSHAKE_MAX_FAILURES: '1000' });
    ({ gateway, services } = rig);
    controller = services.addController({ tenantSlug: 'acme', identity: 'CP-1', password: PASSWORD });
    services.addTenant('other');
  });

  afterAll(async () => {
    await rig?.stop();
  });

  /** Every credential failure looks the same from outside: 401, the bare status text. */
  const unauthorized = { status: 401, body: 'Unauthorized' };

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

describe('ocpp-gateway: rate limiting refused handshakes (behind a trusted ingress)', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;

  beforeAll(async () => {
    rig = await startGatewayTestRig({
      OCPP_HANDSHAKE_MAX_FAILURES: '3',
      OCPP_TRUST_PROXY_HEADERS: 'true',
    });
    ({ gateway, services } = rig);
    services.addController({ tenantSlug: 'acme', identity: 'CP-1', password: PASSWORD });
    services.addController({ tenantSlug: 'acme', identity: 'CP-GUESSED', password: PASSWORD });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  const attempt = (identity: string, password: string, address: string) =>
    upgradeStatus(gateway.ocppPort, {
      path: `/ocpp/acme/${identity}`,
      basicAuth: `${identity}:${password}`,
      headers: { 'x-forwarded-for': address },
    });

  it('limits an identity that keeps failing, whatever address the attempts come from', async () => {
    for (let index = 0; index < 3; index++)
      expect((await attempt('CP-GUESSED', `guess-${index}`, `10.1.0.${index}`)).status).toBe(401);
    // Even the right password now waits for the window to pass; assets-service is not asked meanwhile.
    expect((await attempt('CP-GUESSED', PASSWORD, '10.1.0.99')).status).toBe(429);
  });

  it('limits an address that keeps failing, whatever identities it tries', async () => {
    for (let index = 0; index < 3; index++)
      expect((await attempt(`CP-STUFFED-${index}`, 'nope', '10.2.0.1')).status).toBe(401);
    expect((await attempt('CP-1', PASSWORD, '10.2.0.1')).status).toBe(429);
    // Other charge points are not affected.
    expect((await attempt('CP-1', PASSWORD, '10.2.0.2')).status).toBe(101);
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
