import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { upgradeStatus } from '@cpc/testing';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayForTest,
  startGatewayTestRig,
} from './testing/ocpp-gateway-test-bed.js';

const PASSWORD = 'correct-horse-battery-1';

/** A private CA, a server certificate for 127.0.0.1 and client certificates, made with openssl for this test file. */
function makeCertificates(dir: string) {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = (name: string) =>
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`);
  const signed = (name: string, subject: string, extensions?: string) => {
    key(name);
    openssl('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
    const args = [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      `${name}.crt`,
    ];
    if (extensions) {
      writeFileSync(join(dir, `${name}.ext`), extensions);
      args.push('-extfile', `${name}.ext`);
    }
    openssl(...args);
  };
  key('ca');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-subj',
    '/CN=Test Charge Point CA',
    '-days',
    '2',
    '-out',
    'ca.crt',
  );
  signed('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\n');
  signed('client-cp3', '/O=Acme/CN=CP-TLS-3');
  signed('client-other', '/O=Acme/CN=SOMEONE-ELSE');
  signed('client-other-tenant', '/O=other/CN=CP-TLS-3');
  signed('client-no-tenant', '/CN=CP-TLS-3');
  key('rogue');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'rogue.key',
    '-subj',
    '/CN=CP-TLS-3',
    '-days',
    '2',
    '-out',
    'rogue.crt',
  );
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  return {
    ca: read('ca.crt'),
    client: { cert: read('client-cp3.crt'), key: read('client-cp3.key') },
    otherClient: { cert: read('client-other.crt'), key: read('client-other.key') },
    otherTenantClient: { cert: read('client-other-tenant.crt'), key: read('client-other-tenant.key') },
    noTenantClient: { cert: read('client-no-tenant.crt'), key: read('client-no-tenant.key') },
    rogueClient: { cert: read('rogue.crt'), key: read('rogue.key') },
  };
}

describe('ocpp-gateway: security profiles 2 and 3 with TLS in the gateway', () => {
  let dir: string;
  let certificates: ReturnType<typeof makeCertificates>;
  let rig: GatewayTestRig;
  let tlsGateway: RunningOcppGateway;
  let plainGateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let profile1: FakeController;
  let profile2: FakeController;
  let profile3: FakeController;
  let otherTenantProfile3: FakeController;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cpc-ocpp-tls-'));
    certificates = makeCertificates(dir);
    rig = await startGatewayTestRig();
    ({ gateway: plainGateway, services } = rig);
    profile1 = services.addController({
      tenantSlug: 'acme',
      identity: 'CP-TLS-1',
      password: PASSWORD,
      securityProfile: 1,
    });
    profile2 = services.addController({
      tenantSlug: 'acme',
      identity: 'CP-TLS-2',
      password: PASSWORD,
      securityProfile: 2,
    });
    profile3 = services.addController({ tenantSlug: 'acme', identity: 'CP-TLS-3', securityProfile: 3 });
    otherTenantProfile3 = services.addController({
      tenantSlug: 'other',
      identity: 'CP-TLS-3',
      securityProfile: 3,
    });
    tlsGateway = await startGatewayForTest(rig.nats.url, {
      OCPP_TLS_CERT_FILE: join(dir, 'server.crt'),
      OCPP_TLS_KEY_FILE: join(dir, 'server.key'),
      OCPP_TLS_CLIENT_CA_FILE: join(dir, 'ca.crt'),
    });
  });

  afterAll(async () => {
    await tlsGateway?.app.close();
    await rig?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function connects(
    gateway: RunningOcppGateway,
    controller: FakeController,
    tls: { scheme: 'ws' | 'wss'; cert?: string; key?: string },
  ): Promise<boolean> {
    const cp = chargePoint({
      port: gateway.ocppPort,
      controller,
      protocols: ['ocpp2.0.1'],
      scheme: tls.scheme,
      wsOpts:
        tls.scheme === 'wss'
          ? { ca: certificates.ca, cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' }
          : {},
    });
    try {
      await cp.connect();
      await cp.call('Heartbeat', {});
      await cp.close();
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 401) return false;
      throw error;
    }
  }

  it('profile 1 and 2: Basic auth over TLS', async () => {
    await expect(connects(tlsGateway, profile1, { scheme: 'wss' })).resolves.toBe(true);
    await expect(connects(tlsGateway, profile2, { scheme: 'wss' })).resolves.toBe(true);
  });

  it('profile 2 is refused without TLS, profile 1 is not', async () => {
    await expect(connects(plainGateway, profile2, { scheme: 'ws' })).resolves.toBe(false);
    await expect(connects(plainGateway, profile1, { scheme: 'ws' })).resolves.toBe(true);
  });

  it("profile 3: a certificate names its tenant in O; another tenant's station of the same identity is refused", async () => {
    await expect(
      connects(tlsGateway, otherTenantProfile3, { scheme: 'wss', ...certificates.client }),
    ).resolves.toBe(false);
    await expect(
      connects(tlsGateway, profile3, { scheme: 'wss', ...certificates.otherTenantClient }),
    ).resolves.toBe(false);
    await expect(
      connects(tlsGateway, otherTenantProfile3, { scheme: 'wss', ...certificates.otherTenantClient }),
    ).resolves.toBe(true);
    await expect(
      connects(tlsGateway, profile3, { scheme: 'wss', ...certificates.noTenantClient }),
    ).resolves.toBe(false);
  });

  it('profile 3: a client certificate of the CA whose CN is the identity and O the tenant, no password', async () => {
    await expect(connects(tlsGateway, profile3, { scheme: 'wss', ...certificates.client })).resolves.toBe(
      true,
    );
  });

  it.each([
    ['no certificate', undefined],
    ['a certificate of another charge point', 'otherClient'],
    ['a self-signed certificate with the right CN', 'rogueClient'],
  ] as const)(
    'profile 3 is refused with %s',
    async (_case, which: 'otherClient' | 'rogueClient' | undefined) => {
      const certificate = which ? certificates[which] : {};
      await expect(connects(tlsGateway, profile3, { scheme: 'wss', ...certificate })).resolves.toBe(false);
    },
  );
});

describe('ocpp-gateway: security profiles behind a TLS-terminating ingress', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;

  beforeAll(async () => {
    // The tests' upgrades come from 127.0.0.1, standing in for the ingress here.
    rig = await startGatewayTestRig({ TRUSTED_PROXIES: '127.0.0.1' });
    ({ gateway, services } = rig);
    services.addController({
      tenantSlug: 'acme',
      identity: 'CP-TLS-2',
      password: PASSWORD,
      securityProfile: 2,
    });
    services.addController({ tenantSlug: 'acme', identity: 'CP-TLS-3', securityProfile: 3 });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  it('takes TLS from X-Forwarded-Proto for profile 2', async () => {
    const attempt = (headers: Record<string, string>) =>
      upgradeStatus(gateway.ocppPort, {
        path: '/ocpp/acme/CP-TLS-2',
        basicAuth: `CP-TLS-2:${PASSWORD}`,
        headers,
      });
    await expect(attempt({ 'x-forwarded-proto': 'https' })).resolves.toMatchObject({ status: 101 });
    await expect(attempt({ 'x-forwarded-proto': 'http' })).resolves.toMatchObject({ status: 401 });
  });

  it("takes the verified client certificate from the ingress's headers for profile 3", async () => {
    const attempt = (headers: Record<string, string>) =>
      upgradeStatus(gateway.ocppPort, {
        path: '/ocpp/acme/CP-TLS-3',
        headers: { 'x-forwarded-proto': 'https', ...headers },
      });
    await expect(
      attempt({ 'ssl-client-verify': 'SUCCESS', 'ssl-client-subject-dn': 'CN=CP-TLS-3,O=Acme' }),
    ).resolves.toMatchObject({
      status: 101,
    });
    await expect(
      attempt({ 'ssl-client-verify': 'FAILED:unable to verify', 'ssl-client-subject-dn': 'CN=CP-TLS-3' }),
    ).resolves.toMatchObject({
      status: 401,
    });
    await expect(
      attempt({ 'ssl-client-verify': 'SUCCESS', 'ssl-client-subject-dn': 'CN=CP-OTHER,O=Acme' }),
    ).resolves.toMatchObject({
      status: 401,
    });
  });
});
