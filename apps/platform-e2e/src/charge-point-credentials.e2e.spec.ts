import type { ControllerView } from '@cpc/contracts';
import type { components, PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  unique,
} from '@cpc/testing';
import { sdkTestUser } from './support/sdk-test-client.js';

const NEW_PASSWORD = 'charge-point-secret-02';

/**
 * Credential changes take effect on the real platform: a PATCH of a controller's password, security profile or
 * identity through the API (the typed SDK) closes its open socket, the old credentials are refused (401) and the new ones work. And
 * security profile 0 only for a tenant an operator allowed it for (admin CLI), never by default.
 */
describe('charge point credentials', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let data: AssetsTestData;
  /** acme's operator (every asset permission), by the SDK. */
  let operator: PlatformClient;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'api-gateway', 'ocpp-gateway'],
      // A tenant setting changed by the CLI reaches the gateway at once, not after its cache expired.
      env: { OCPP_TENANT_CACHE_TTL_MS: '0' },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    const { operator: token } = await tenantWithUsers(platform, api, 'acme', { operator: 'asset' });
    data = new AssetsTestData(api, token);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator');
  }, 180_000);

  afterAll(() => platform?.stop());

  const chargePoint = (identity: string, password: string | null): ChargePoint =>
    ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity,
      password,
      protocols: ['ocpp1.6'],
    });

  const connected = async (identity: string, password: string | null): Promise<ChargePoint> => {
    const client = chargePoint(identity, password);
    await client.connect();
    return client;
  };

  /** ocpp-rpc rejects a refused upgrade with the HTTP status as `code`. */
  const refusal = (identity: string, password: string | null) =>
    chargePoint(identity, password)
      .connect()
      .then(
        () => 'connected',
        (error: { code?: number }) => error.code,
      );

  const closeOf = (client: ChargePoint) =>
    new Promise<number>((resolve) => client.once('close', ({ code }) => resolve(code)));

  const patch = async (
    controller: ControllerView,
    changes: components['schemas']['UpdateControllerBody'],
  ) => {
    const { response } = await operator.api.PATCH('/api/v1/assets/controllers/{uuid}', {
      params: { path: { uuid: controller.uuid } },
      body: changes,
    });
    expect(response.status).toBe(200);
  };

  it('a password change closes the socket; the old password gets 401, the new one connects', async () => {
    const controller = await data.controller((await data.location()).uuid);
    const client = await connected(controller.ocpp_identity, OCPP_PASSWORD);
    const closed = closeOf(client);

    await patch(controller, { ocpp_password: NEW_PASSWORD });

    expect(await closed).toBe(1008);
    await expect(refusal(controller.ocpp_identity, OCPP_PASSWORD)).resolves.toBe(401);
    const renewed = await connected(controller.ocpp_identity, NEW_PASSWORD);
    await expect(renewed.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
    await renewed.close();
  });

  it('an identity change closes the socket; the old identity gets 401, the new one connects', async () => {
    const controller = await data.controller((await data.location()).uuid);
    const client = await connected(controller.ocpp_identity, OCPP_PASSWORD);
    const closed = closeOf(client);
    const newIdentity = unique('CP');

    await patch(controller, { ocpp_identity: newIdentity });

    expect(await closed).toBe(1008);
    await expect(refusal(controller.ocpp_identity, OCPP_PASSWORD)).resolves.toBe(401);
    const renewed = await connected(newIdentity, OCPP_PASSWORD);
    await renewed.close();
  });

  it('profile 0 is refused until the tenant allows it; a profile change closes the socket of the old profile', async () => {
    const controller = await data.controller((await data.location()).uuid);
    const client = await connected(controller.ocpp_identity, OCPP_PASSWORD);
    const closed = closeOf(client);
    expect((await platform.admin(['tenant:list'])).tenants).toEqual([
      expect.objectContaining({ slug: 'acme', allows_security_profile_0: false }),
    ]);

    await patch(controller, { security_profile: 0 });

    expect(await closed).toBe(1008);
    // Profile 0 without the tenant's consent: 401, with the old password or none.
    await expect(refusal(controller.ocpp_identity, OCPP_PASSWORD)).resolves.toBe(401);
    await expect(refusal(controller.ocpp_identity, null)).resolves.toBe(401);

    await expect(
      platform.admin(['tenant:set-profile-0', '--slug', 'acme', '--allowed', 'true']),
    ).resolves.toMatchObject({ slug: 'acme', allows_security_profile_0: true });
    const open = await connected(controller.ocpp_identity, null);
    await expect(open.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');

    // And back to profile 1: the credential-less socket is closed, the password is needed again.
    const openClosed = closeOf(open);
    await patch(controller, { security_profile: 1, ocpp_password: NEW_PASSWORD });
    expect(await openClosed).toBe(1008);
    await expect(refusal(controller.ocpp_identity, null)).resolves.toBe(401);
    await (await connected(controller.ocpp_identity, NEW_PASSWORD)).close();

    await platform.admin(['tenant:set-profile-0', '--slug', 'acme', '--allowed', 'false']);
    await expect(
      platform.admin(['tenant:set-profile-0', '--slug', 'acme', '--allowed', 'yes']),
    ).rejects.toThrow(/--allowed must be true or false/);
  });
});
