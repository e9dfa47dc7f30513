import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type OcppCallReply, type OcppCallRequest, OcppGatewaySubjects } from '@cpc/contracts';
import type { PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';
import { sampleValue } from './support/prometheus-text.js';
import { sdkTestUser } from './support/sdk-test-client.js';

const SERVICES = [
  'api-gateway',
  'auth-service',
  'assets-service',
  'command-service',
  'ocpp-gateway',
] as const;

/**
 * Prometheus metrics of the running services: every service answers GET /metrics on its HEALTH_PORT (never on the
 * public API port), and the platform's own metrics move with the traffic they measure.
 */
describe('metrics', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let data: AssetsTestData;
  /** acme's operator (assets and control), by the typed SDK. */
  let operator: PlatformClient;
  let nats: NatsConnection;

  const scrape = async (service: (typeof SERVICES)[number]): Promise<string> => {
    const response = await fetch(`http://127.0.0.1:${platform.service(service).healthPort}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    platform = await startPlatformUnderTest();
    api = await ApiTestClient.connect(platform.apiUrl);
    const { operator: token } = await tenantWithUsers(platform, api, 'acme', { operator: 'asset,control' });
    data = new AssetsTestData(api, token);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator');
    nats = await connect(platform.natsTestClientOptions);
  }, 180_000);

  afterAll(async () => {
    await nats?.close();
    await platform?.stop();
  });

  it.each(SERVICES)(
    '%s answers GET /metrics on its HEALTH_PORT with the process metrics',
    async (service) => {
      const response = await fetch(`http://127.0.0.1:${platform.service(service).healthPort}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(sampleValue(await response.text(), 'process_resident_memory_bytes')).toBeGreaterThan(0);
    },
  );

  it('keeps /metrics off the public API port', async () => {
    expect((await fetch(`${platform.apiUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`${platform.apiUrl}/api/v1/metrics`)).status).toBe(404);
  });

  it('measures HTTP requests by route template and the NATS requests behind them on both sides', async () => {
    const missing = '6d1f3c1e-9a0b-4c5d-8e7f-0a1b2c3d4e5f';
    const route = '/api/v1/assets/locations/:uuid';
    const httpLabels = { method: 'GET', route, status_code: '404' };
    const before = sampleValue(
      await scrape('api-gateway'),
      'http_request_duration_seconds_count',
      httpLabels,
    );

    const read = await operator.api.GET('/api/v1/assets/locations/{uuid}', {
      params: { path: { uuid: missing } },
    });
    expect(read.response.status).toBe(404);

    const gateway = await scrape('api-gateway');
    expect(sampleValue(gateway, 'http_request_duration_seconds_count', httpLabels)).toBe(before + 1);
    expect(gateway).not.toContain(missing);
    const subject = 'assets.location.get.v1';
    expect(
      sampleValue(gateway, 'nats_request_duration_seconds_count', { subject, outcome: 'error' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(await scrape('assets-service'), 'nats_handler_duration_seconds_count', {
        subject,
        outcome: 'error',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts connected charge points and OCPP calls in both directions by action and outcome', async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const chargePoint = ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity: controller.ocpp_identity,
      password: OCPP_PASSWORD,
      protocols: ['ocpp1.6'],
    });
    const connected = async () =>
      sampleValue(await scrape('ocpp-gateway'), 'ocpp_connected_charge_points', { protocol: 'ocpp1.6' });
    expect(await connected()).toBe(0);

    await chargePoint.connect();
    try {
      expect(await connected()).toBe(1);
      await chargePoint.call('BootNotification', { chargePointVendor: 'ACME', chargePointModel: 'Metered' });
      chargePoint.handle('Reset', () => ({ status: 'Accepted' }));
      const request: OcppCallRequest = {
        commandUuid: '0e3c2b1a-5d4f-4a6b-9c8d-7e6f5a4b3c2d',
        type: 'soft_reset',
        target: { targetType: 'controller' },
      };
      const reply = (
        await nats.request(OcppGatewaySubjects.call(controller.uuid), JSON.stringify(request), {
          timeout: 20_000,
        })
      ).json<OcppCallReply>();
      expect(reply.outcome).toBe('answered');

      const metrics = await scrape('ocpp-gateway');
      expect(
        sampleValue(metrics, 'ocpp_calls_total', {
          direction: 'from_charge_point',
          action: 'BootNotification',
          outcome: 'ok',
        }),
      ).toBe(1);
      expect(
        sampleValue(metrics, 'ocpp_calls_total', {
          direction: 'to_charge_point',
          action: 'Reset',
          outcome: 'answered',
        }),
      ).toBe(1);
    } finally {
      await chargePoint.close({ force: true });
    }
    expect(await eventually(connected, (value) => value === 0)).toBe(0);
  });

  it('counts commands by status in command-service', async () => {
    const total = async () => {
      const metrics = await scrape('command-service');
      return ['pending', 'sent', 'accepted', 'rejected', 'timeout', 'failed']
        .map((status) => sampleValue(metrics, 'commands', { status }))
        .reduce((sum, count) => sum + count, 0);
    };
    const before = await total();
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const { response } = await operator.api.POST('/api/v1/control/commands', {
      body: {
        type: 'soft_reset',
        target_type: 'controller',
        target_uuid: controller.uuid,
        valid_for_seconds: 60,
      },
    });
    expect(response.status).toBe(202);
    expect(await total()).toBe(before + 1);
  });
});
