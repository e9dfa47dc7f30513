import type { ServiceProcess } from '@cpc/platform-launcher';
import {
  ApiTestClient,
  AssetsTestData,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startAnotherOcppGateway,
  startPlatformUnderTest,
  tenantWithUsers,
  upgradeStatus,
} from '@cpc/testing';

const MAX_FAILURES = 10;

/** The status of one upgrade to `ocppUrl` from `localAddress`: 101 when a socket opened, else the refusal's. */
async function handshakeStatus(
  ocppUrl: string,
  identity: string,
  password: string,
  localAddress: string,
): Promise<number> {
  const path = `/ocpp/acme/${identity}`;
  return (await upgradeStatus(ocppUrl, { path, basicAuth: `${identity}:${password}`, localAddress })).status;
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/**
 * Failed handshakes counted by assets-service in PostgreSQL, before the password check, across two real gateway
 * processes: parallel guesses count one by one, the replicas share the count, and another address still connects.
 */
describe('charge point handshake limits on the real gateway and assets-service', () => {
  let platform: PlatformUnderTest;
  let data: AssetsTestData;
  let secondGateway: ServiceProcess;
  let secondOcppUrl: string;

  beforeAll(async () => {
    const env = {
      OCPP_PASSWORD_SCRYPT_LOG2_N: '10',
      OCPP_HANDSHAKE_MAX_FAILURES: String(MAX_FAILURES),
      // The per-address cap of concurrent handshakes would refuse most of the burst by itself: out of the way here.
      OCPP_MAX_CONCURRENT_HANDSHAKES_PER_ADDRESS: '1000',
      OCPP_PASSWORD_MAX_QUEUED_CHECKS: '1000',
    };
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'api-gateway', 'ocpp-gateway'],
      env,
    });
    ({ gateway: secondGateway, ocppUrl: secondOcppUrl } = await startAnotherOcppGateway(platform));

    const api = await ApiTestClient.connect(platform.apiUrl);
    const { operator } = await tenantWithUsers(platform, api, 'acme', { operator: 'asset' });
    data = new AssetsTestData(api, operator);
  }, 180_000);

  afterAll(async () => {
    await secondGateway?.stop();
    await platform?.stop();
  });

  it('answers 200 parallel wrong passwords from one address, spread over two gateways, with at most the limit of 401', async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const identity = controller.ocpp_identity;
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        handshakeStatus(
          index % 2 === 0 ? platform.ocppUrl : secondOcppUrl,
          identity,
          `wrong-password-${index}`,
          '127.0.0.2',
        ),
      ),
    );
    expect(tally(statuses)).toEqual({ 401: MAX_FAILURES, 429: 200 - MAX_FAILURES });

    // That address waits out the window, even with the right password; another address connects at once.
    await expect(handshakeStatus(secondOcppUrl, identity, OCPP_PASSWORD, '127.0.0.2')).resolves.toBe(429);
    await expect(handshakeStatus(platform.ocppUrl, identity, OCPP_PASSWORD, '127.0.0.3')).resolves.toBe(101);
    // The probe's socket on the first gateway announces itself to the other instances; announced late (a loaded
    // machine), it is the newest connection of the controller and replaces the station's socket, so the station
    // connects again until a call of it is answered.
    await eventually(
      async () => {
        const station = ocppChargePoint({
          ocppUrl: secondOcppUrl,
          tenantSlug: 'acme',
          identity,
          password: OCPP_PASSWORD,
          protocols: ['ocpp1.6'],
        });
        try {
          await station.connect();
          await station.call('Heartbeat', {});
          return true;
        } catch {
          return false;
        } finally {
          await station.close().catch(() => undefined);
        }
      },
      (answered) => answered,
    );
  });
});
