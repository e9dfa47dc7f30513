import type { PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';
import { sdkTestUser } from './support/sdk-test-client.js';

/**
 * The assets API together with real OCPP-J charge points on the real ocpp-gateway: the gateway authenticates them
 * against the registered controllers, what they report becomes the controllers' and plugs' live state, and deleting a
 * controller disconnects its charge point. The API is read through the typed SDK (libs/sdk), every answer checked
 * against the served OpenAPI document.
 */
describe('assets with real charge points', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let data: AssetsTestData;
  /** acme's operator (every asset permission), by the SDK. */
  let operator: PlatformClient;

  const readController = (uuid: string) =>
    operator.api.GET('/api/v1/assets/controllers/{uuid}', { params: { path: { uuid } } });
  const readPlug = (uuid: string) =>
    operator.api.GET('/api/v1/assets/plugs/{uuid}', { params: { path: { uuid } } });

  const chargePoint = (identity: string, protocol: string, password = OCPP_PASSWORD): ChargePoint =>
    ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity,
      password,
      protocols: [protocol],
    });

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'api-gateway', 'ocpp-gateway'],
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    const { operator: token } = await tenantWithUsers(platform, api, 'acme', { operator: 'asset' });
    data = new AssetsTestData(api, token);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator');
  }, 180_000);

  afterAll(() => platform?.stop());

  const versions = [
    {
      protocol: 'ocpp1.6',
      boot: {
        chargePointVendor: 'ACME',
        chargePointModel: 'Wallbox 16',
        chargePointSerialNumber: 'SN-16',
        firmwareVersion: '1.6.0',
      },
      status: (connectorId: number, status: string) => ({
        connectorId,
        errorCode: 'NoError',
        status,
        timestamp: new Date().toISOString(),
      }),
      reported: ['Charging', 'Faulted'],
      model: 'Wallbox 16',
    },
    {
      protocol: 'ocpp2.0.1',
      boot: {
        reason: 'PowerUp',
        chargingStation: {
          vendorName: 'ACME',
          model: 'Wallbox 201',
          serialNumber: 'SN-201',
          firmwareVersion: '2.0.1',
        },
      },
      status: (evseId: number, status: string) => ({
        timestamp: new Date().toISOString(),
        connectorStatus: status,
        evseId,
        connectorId: 1,
      }),
      reported: ['Occupied', 'Faulted'],
      model: 'Wallbox 201',
    },
  ];

  it.each(versions)(
    '$protocol: authenticates, reports live state, and is disconnected when its controller is deleted',
    async (version) => {
      const location = await data.location();
      const controller = await data.controller(location.uuid);
      const plugs = [await data.plug(controller.uuid, 1), await data.plug(controller.uuid, 2)];

      const impostor = chargePoint(controller.ocpp_identity, version.protocol, 'not-the-password-123');
      await expect(impostor.connect()).rejects.toThrow();

      const client = chargePoint(controller.ocpp_identity, version.protocol);
      await client.connect();
      await client.call('BootNotification', version.boot);
      await client.call('StatusNotification', version.status(1, version.reported[0]));
      await client.call('StatusNotification', version.status(2, version.reported[1]));

      const live = await eventually(
        async () => (await readController(controller.uuid)).data?.controller,
        (view) => view?.connection_status === 'online' && view.vendor === 'ACME',
      );
      expect(live).toMatchObject({ ocpp_protocol: version.protocol, model: version.model });
      expect(live!.last_seen_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      await eventually(
        () => Promise.all(plugs.map(async (plug) => (await readPlug(plug.uuid)).data?.plug)),
        (found) => found.every((view, index) => view?.status === version.reported[index]),
      );

      const closed = new Promise<number>((resolve) => client.once('close', ({ code }) => resolve(code)));
      const deleted = await operator.api.DELETE('/api/v1/assets/controllers/{uuid}', {
        params: { path: { uuid: controller.uuid } },
      });
      expect(deleted.response.status).toBe(200);
      const code = await Promise.race([
        closed,
        new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 5_000)),
      ]);
      expect(code).not.toBe('still open');
      expect((await readController(controller.uuid)).response.status).toBe(404);
      await expect(chargePoint(controller.ocpp_identity, version.protocol).connect()).rejects.toThrow();
    },
  );

  it('shows a controller offline once its charge point disconnects', async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const client = chargePoint(controller.ocpp_identity, 'ocpp1.6');
    await client.connect();
    await eventually(
      async () => (await readController(controller.uuid)).data?.controller,
      (view) => view?.connection_status === 'online',
    );
    await client.close();
    await eventually(
      async () => (await readController(controller.uuid)).data?.controller,
      (view) => view?.connection_status === 'offline',
    );
  });
});
