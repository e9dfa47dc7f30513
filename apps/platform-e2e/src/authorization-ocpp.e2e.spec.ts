import type { ServiceProcess } from '@cpc/platform-launcher';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startAnotherOcppGateway,
  startPlatformUnderTest,
  tenantWithUsers,
  unique,
  usersWithRoles,
} from '@cpc/testing';

/**
 * How long a change may take to reach every gateway instance here: not the second docs/authorization.md states (a
 * loaded machine answers later, and tests do not time), but well below the tenant cache's 30 s, so only a broadcast
 * or the revision checks can make a test pass.
 */
const CHANGE_WAIT_MS = 10_000;

type Protocol = 'ocpp1.6' | 'ocpp2.0.1';

/**
 * Drivers' authorization end to end: real OCPP 1.6 and 2.0.1 clients against two real gateway processes answering
 * from their token caches, tokens changed through the API, the tenant's mode through the admin CLI.
 */
describe('drivers authorization at the ocpp-gateway', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let ops: string;
  let rivalOps: string;
  let data: AssetsTestData;
  let secondGateway: ServiceProcess;
  let secondOcppUrl: string;
  let here: { uuid: string };
  let elsewhere: { uuid: string };
  const clients: ChargePoint[] = [];

  const tokenCall = (method: string, path: string, body?: unknown, token = ops) =>
    api.call(method, `/api/v1/authorization/${path}`, { token, ...(body === undefined ? {} : { body }) });

  async function idToken(
    body: Record<string, unknown>,
    token = ops,
  ): Promise<{ uuid: string; id_token: string }> {
    const response = await tokenCall('POST', 'id-tokens', { type: 'iso14443', ...body }, token);
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    return response.body.id_token;
  }

  async function chargePoint(
    protocol: Protocol,
    options: { ocppUrl?: string; tenant?: string; assets?: AssetsTestData; locationUuid?: string } = {},
  ): Promise<ChargePoint> {
    return (await chargePointOf(protocol, options)).client;
  }

  async function chargePointOf(
    protocol: Protocol,
    options: { ocppUrl?: string; tenant?: string; assets?: AssetsTestData; locationUuid?: string } = {},
  ): Promise<{ client: ChargePoint; controllerUuid: string }> {
    const assets = options.assets ?? data;
    const controller = await assets.controller(options.locationUuid ?? here.uuid);
    const client = ocppChargePoint({
      ocppUrl: options.ocppUrl ?? platform.ocppUrl,
      tenantSlug: options.tenant ?? 'acme',
      identity: controller.ocpp_identity,
      password: OCPP_PASSWORD,
      protocols: [protocol],
    });
    await client.connect();
    clients.push(client);
    return { client, controllerUuid: controller.uuid };
  }

  const authorize16 = async (client: ChargePoint, idTag: string) =>
    ((await client.call('Authorize', { idTag })) as { idTagInfo: Record<string, unknown> }).idTagInfo;
  const authorize201 = async (client: ChargePoint, value: string, type = 'ISO14443') =>
    (
      (await client.call('Authorize', { idToken: { idToken: value, type } })) as {
        idTokenInfo: Record<string, unknown>;
      }
    ).idTokenInfo;

  function transactionEvent(
    eventType: 'Started' | 'Updated' | 'Ended',
    transactionId: string,
    seqNo: number,
    idToken: string,
  ) {
    return {
      eventType,
      timestamp: new Date().toISOString(),
      triggerReason: eventType === 'Started' ? 'Authorized' : 'MeterValuePeriodic',
      seqNo,
      transactionInfo: { transactionId },
      evse: { id: 1, connectorId: 1 },
      idToken: { idToken, type: 'ISO14443' },
    };
  }

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'api-gateway', 'ocpp-gateway'],
      env: { OCPP_PASSWORD_SCRYPT_LOG2_N: '10' },
    });
    ({ gateway: secondGateway, ocppUrl: secondOcppUrl } = await startAnotherOcppGateway(platform, {
      OCPP_GATEWAY_INSTANCE_ID: 'second',
    }));
    api = await ApiTestClient.connect(platform.apiUrl);
    ({ ops } = await tenantWithUsers(platform, api, 'acme', { ops: 'asset,authorization' }));
    ({ rivalOps } = await tenantWithUsers(platform, api, 'rival', { rivalOps: 'asset,authorization' }));
    data = new AssetsTestData(api, ops);
    here = await data.location();
    elsewhere = await data.location();
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close({ force: true }).catch(() => undefined)));
    await secondGateway?.stop();
    await platform?.stop();
  });

  describe('strict (the default)', () => {
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      const fleet = await idToken({ id_token: unique('FLEET').slice(0, 20), type: 'central' });
      tokens.fleet = fleet.id_token;
      tokens.accepted = (
        await idToken({
          id_token: unique('OK').slice(0, 20),
          expires_at: '2099-01-01T00:00:00Z',
          group_id_token: { id_token: fleet.id_token, type: 'central' },
        })
      ).id_token;
      tokens.blocked = (await idToken({ id_token: unique('BLK').slice(0, 20), status: 'blocked' })).id_token;
      tokens.expiredStatus = (
        await idToken({ id_token: unique('EXS').slice(0, 20), status: 'expired' })
      ).id_token;
      tokens.expiredDate = (
        await idToken({ id_token: unique('EXD').slice(0, 20), expires_at: '2020-01-01T00:00:00Z' })
      ).id_token;
      tokens.invalid = (await idToken({ id_token: unique('INV').slice(0, 20), status: 'invalid' })).id_token;
      tokens.elsewhere = (
        await idToken({ id_token: unique('ELS').slice(0, 20), allowed_location_uuids: [elsewhere.uuid] })
      ).id_token;
      tokens.hereOnly = (
        await idToken({ id_token: unique('HER').slice(0, 20), allowed_location_uuids: [here.uuid] })
      ).id_token;
    });

    it('answers OCPP 1.6 Authorize with idTagInfo as 1.6 defines it', async () => {
      const client = await chargePoint('ocpp1.6');
      await expect(authorize16(client, tokens.accepted.toLowerCase())).resolves.toEqual({
        status: 'Accepted',
        expiryDate: '2099-01-01T00:00:00.000Z',
        parentIdTag: tokens.fleet,
      });
      await expect(authorize16(client, 'NO-SUCH-TAG')).resolves.toEqual({ status: 'Invalid' });
      await expect(authorize16(client, tokens.blocked)).resolves.toEqual({ status: 'Blocked' });
      await expect(authorize16(client, tokens.expiredStatus)).resolves.toEqual({ status: 'Expired' });
      await expect(authorize16(client, tokens.expiredDate)).resolves.toEqual({
        status: 'Expired',
        expiryDate: '2020-01-01T00:00:00.000Z',
      });
      await expect(authorize16(client, tokens.invalid)).resolves.toEqual({ status: 'Invalid' });
      await expect(authorize16(client, tokens.elsewhere)).resolves.toEqual({ status: 'Invalid' });
      await expect(authorize16(client, tokens.hereOnly)).resolves.toEqual({ status: 'Accepted' });
    });

    it('answers OCPP 2.0.1 Authorize with idTokenInfo as 2.0.1 defines it', async () => {
      const client = await chargePoint('ocpp2.0.1');
      await expect(authorize201(client, tokens.accepted)).resolves.toEqual({
        status: 'Accepted',
        cacheExpiryDateTime: '2099-01-01T00:00:00.000Z',
        groupIdToken: { idToken: tokens.fleet, type: 'Central' },
      });
      await expect(authorize201(client, 'NO-SUCH-TOKEN')).resolves.toEqual({ status: 'Unknown' });
      // The same value with another type is another token, here an unknown one.
      await expect(authorize201(client, tokens.accepted, 'KeyCode')).resolves.toEqual({ status: 'Unknown' });
      await expect(authorize201(client, tokens.blocked)).resolves.toEqual({ status: 'Blocked' });
      await expect(authorize201(client, tokens.expiredStatus)).resolves.toEqual({ status: 'Expired' });
      await expect(authorize201(client, tokens.expiredDate)).resolves.toMatchObject({ status: 'Expired' });
      await expect(authorize201(client, tokens.invalid)).resolves.toEqual({ status: 'Invalid' });
      await expect(authorize201(client, tokens.elsewhere)).resolves.toEqual({ status: 'NotAtThisLocation' });
      const atElsewhere = await chargePoint('ocpp2.0.1', { locationUuid: elsewhere.uuid });
      await expect(authorize201(atElsewhere, tokens.elsewhere)).resolves.toEqual({ status: 'Accepted' });
      await expect(authorize201(atElsewhere, tokens.hereOnly)).resolves.toEqual({
        status: 'NotAtThisLocation',
      });
    });

    it('answers 1.6 StartTransaction and StopTransaction from the tokens', async () => {
      const client = await chargePoint('ocpp1.6');
      const start = (idTag: string) =>
        client.call('StartTransaction', {
          connectorId: 1,
          idTag,
          meterStart: 0,
          timestamp: new Date().toISOString(),
        }) as Promise<{ transactionId: number; idTagInfo: Record<string, unknown> }>;
      const accepted = await start(tokens.accepted);
      expect(accepted.idTagInfo).toMatchObject({ status: 'Accepted', parentIdTag: tokens.fleet });
      expect((await start('NO-SUCH-TAG')).idTagInfo).toEqual({ status: 'Invalid' });
      expect((await start(tokens.blocked)).idTagInfo).toEqual({ status: 'Blocked' });
      expect((await start(tokens.expiredDate)).idTagInfo).toMatchObject({ status: 'Expired' });
      expect((await start(tokens.elsewhere)).idTagInfo).toEqual({ status: 'Invalid' });
      const stop = (await client.call('StopTransaction', {
        transactionId: accepted.transactionId,
        idTag: tokens.blocked,
        meterStop: 10,
        timestamp: new Date().toISOString(),
      })) as { idTagInfo: Record<string, unknown> };
      expect(stop.idTagInfo).toEqual({ status: 'Blocked' });
    });

    it('answers 2.0.1 TransactionEvents that carry an idToken', async () => {
      const client = await chargePoint('ocpp2.0.1');
      const transactionId = unique('tx');
      const started = (await client.call(
        'TransactionEvent',
        transactionEvent('Started', transactionId, 0, tokens.accepted),
      )) as { idTokenInfo: Record<string, unknown> };
      expect(started.idTokenInfo).toMatchObject({ status: 'Accepted' });
      const unknown = (await client.call(
        'TransactionEvent',
        transactionEvent('Started', unique('tx'), 0, 'NO-SUCH-TOKEN'),
      )) as { idTokenInfo: Record<string, unknown> };
      expect(unknown.idTokenInfo).toEqual({ status: 'Unknown' });
      const ended = (await client.call(
        'TransactionEvent',
        transactionEvent('Ended', transactionId, 1, tokens.expiredStatus),
      )) as { idTokenInfo: Record<string, unknown> };
      expect(ended.idTokenInfo).toEqual({ status: 'Expired' });
    });

    it("keeps tenants apart: the same value is answered from each tenant's own token", async () => {
      const value = unique('SHARED').slice(0, 20);
      await idToken({ id_token: value });
      const rivalData = new AssetsTestData(api, rivalOps);
      const rivalLocation = await rivalData.location();
      await idToken({ id_token: value, status: 'blocked' }, rivalOps);
      const mine = await chargePoint('ocpp1.6');
      const theirs = await chargePoint('ocpp1.6', {
        tenant: 'rival',
        assets: rivalData,
        locationUuid: rivalLocation.uuid,
      });
      await expect(authorize16(mine, value)).resolves.toEqual({ status: 'Accepted' });
      await expect(authorize16(theirs, value)).resolves.toEqual({ status: 'Blocked' });
      await expect(authorize16(theirs, tokens.accepted)).resolves.toEqual({ status: 'Invalid' });
    });
  });

  describe('a change while charging, on two gateway instances', () => {
    it('answers a token blocked mid-session Blocked at its next message, on both instances', async () => {
      const token = await idToken({ id_token: unique('MID').slice(0, 20) });
      const first = await chargePoint('ocpp2.0.1');
      const second = await chargePoint('ocpp1.6', { ocppUrl: secondOcppUrl });
      const transactionId = unique('tx');
      const started = (await first.call(
        'TransactionEvent',
        transactionEvent('Started', transactionId, 0, token.id_token),
      )) as { idTokenInfo: { status: string } };
      expect(started.idTokenInfo.status).toBe('Accepted');
      await expect(authorize16(second, token.id_token)).resolves.toEqual({ status: 'Accepted' });

      expect((await tokenCall('PATCH', `id-tokens/${token.uuid}`, { status: 'blocked' })).status).toBe(200);
      await Promise.all([
        eventually(
          async () =>
            (
              (await first.call(
                'TransactionEvent',
                transactionEvent('Updated', transactionId, 1, token.id_token),
              )) as {
                idTokenInfo: { status: string };
              }
            ).idTokenInfo.status,
          (status) => status === 'Blocked',
          { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
        ),
        eventually(
          async () => (await authorize16(second, token.id_token)).status,
          (status) => status === 'Blocked',
          { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
        ),
      ]);

      // A deleted token is unknown at once; a created one is known at once; both instances.
      expect((await tokenCall('DELETE', `id-tokens/${token.uuid}`)).status).toBe(200);
      await eventually(
        () => authorize16(second, token.id_token),
        (info) => info.status === 'Invalid',
        { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
      );
      const fresh = await idToken({ id_token: unique('NEW').slice(0, 20) });
      await eventually(
        () => authorize201(first, fresh.id_token),
        (info) => info.status === 'Accepted',
        { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
      );
      await eventually(
        () => authorize16(second, fresh.id_token),
        (info) => info.status === 'Accepted',
        { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
      );
    });

    it('follows an import, announced as a reload, on both instances', async () => {
      const prefix = unique('BULK').slice(0, 12);
      const first = await chargePoint('ocpp1.6');
      const second = await chargePoint('ocpp2.0.1', { ocppUrl: secondOcppUrl });
      const imported = await tokenCall('POST', 'id-tokens:import', {
        id_tokens: Array.from({ length: 1000 }, (_, index) => ({
          id_token: `${prefix}-${index}`,
          type: 'iso14443',
        })),
      });
      expect(imported.status).toBe(200);
      await eventually(
        () => authorize16(first, `${prefix}-999`),
        (info) => info.status === 'Accepted',
        { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
      );
      await eventually(
        () => authorize201(second, `${prefix}-0`),
        (info) => info.status === 'Accepted',
        { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
      );
    });
  });

  describe('accept_unknown', () => {
    it('accepts unknown tokens and still answers known ones from their record, from the moment it is set', async () => {
      const blocked = await idToken({ id_token: unique('BLK2').slice(0, 20), status: 'blocked' });
      const old = await chargePoint('ocpp1.6');
      const other = await chargePoint('ocpp2.0.1', { ocppUrl: secondOcppUrl });
      await expect(authorize16(old, 'WHO-KNOWS')).resolves.toEqual({ status: 'Invalid' });
      await expect(authorize201(other, 'WHO-KNOWS')).resolves.toEqual({ status: 'Unknown' });

      await platform.admin(['tenant:set-authorization-mode', '--slug', 'acme', '--mode', 'accept_unknown']);
      await eventually(
        () => authorize16(old, 'WHO-KNOWS'),
        (info) => info.status === 'Accepted',
        { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
      );
      await expect(authorize201(other, 'WHO-KNOWS')).resolves.toEqual({ status: 'Accepted' });
      await expect(authorize16(old, blocked.id_token)).resolves.toEqual({ status: 'Blocked' });
      await expect(authorize201(other, blocked.id_token)).resolves.toEqual({ status: 'Blocked' });
      const started = (await old.call('StartTransaction', {
        connectorId: 1,
        idTag: 'WHO-KNOWS',
        meterStart: 0,
        timestamp: new Date().toISOString(),
      })) as { idTagInfo: Record<string, unknown> };
      expect(started.idTagInfo).toEqual({ status: 'Accepted' });

      await platform.admin(['tenant:set-authorization-mode', '--slug', 'acme', '--mode', 'strict']);
      await eventually(
        () => authorize201(other, 'WHO-KNOWS'),
        (info) => info.status === 'Unknown',
        { timeoutMs: CHANGE_WAIT_MS, intervalMs: 20 },
      );
    });
  });

  describe('the decision log', () => {
    it('keeps every decision, readable by token, controller, result and time, paged and per tenant', async () => {
      const value = unique('LOG').slice(0, 20);
      const token = await idToken({ id_token: value, status: 'blocked' });
      const { client, controllerUuid } = await chargePointOf('ocpp2.0.1', { ocppUrl: secondOcppUrl });
      const from = new Date(Date.now() - 1000).toISOString();
      await authorize201(client, value);
      await authorize201(client, value.toLowerCase());
      await authorize201(client, `${value}-NOT`);
      const byToken = await eventually(
        () => tokenCall('GET', `decisions?filter[id_token]=${value}`),
        (response) => response.status === 200 && response.body.decisions.length === 2,
        { timeoutMs: 10_000, intervalMs: 100 },
      );
      expect(byToken.body.decisions[0]).toEqual({
        uuid: expect.any(String),
        id_token: value.toLowerCase(),
        type: 'iso14443',
        id_token_uuid: token.uuid,
        controller_uuid: controllerUuid,
        location_uuid: here.uuid,
        result: 'blocked',
        reason: 'token_status',
        message_kind: 'authorize',
        decided_at: expect.any(String),
      });
      const byController = await eventually(
        () => tokenCall('GET', `decisions?filter[controller_uuid]=${controllerUuid}&limit=2`),
        (response) => response.body.pagination?.total_pages === 2,
        { timeoutMs: 10_000, intervalMs: 100 },
      );
      expect(byController.body.pagination).toEqual({
        page: 1,
        total_pages: 2,
        page_size: 2,
        has_more: true,
        cursor: { next: expect.any(String) },
      });
      // By cursor: the third decision, then back to the first two, the filter kept; the cursor of another filter is refused.
      const mine = `decisions?filter[controller_uuid]=${controllerUuid}&limit=2`;
      const third = await tokenCall('GET', `${mine}&cursor=${byController.body.pagination.cursor.next}`);
      expect(third.status).toBe(200);
      expect(third.body.decisions).toEqual([expect.objectContaining({ id_token: value })]);
      expect(third.body.pagination).toEqual({
        page_size: 2,
        has_more: false,
        cursor: { prev: expect.any(String) },
      });
      const back = await tokenCall('GET', `${mine}&cursor=${third.body.pagination.cursor.prev}`);
      expect(back.body.decisions).toEqual(byController.body.decisions);
      expect(back.body.pagination).toEqual({
        page_size: 2,
        has_more: true,
        cursor: { next: expect.any(String) },
      });
      const foreign = await tokenCall(
        'GET',
        `${mine}&filter[result]=blocked&cursor=${byController.body.pagination.cursor.next}`,
      );
      expect(foreign.status).toBe(422);
      expect(foreign.body).toEqual({
        errors: [{ parameter: 'cursor', errorKey: 'invalid_cursor', message: expect.any(String) }],
      });
      const unknown = await tokenCall(
        'GET',
        `decisions?filter[controller_uuid]=${controllerUuid}&filter[result]=unknown`,
      );
      expect(unknown.body.decisions).toEqual([
        expect.objectContaining({ id_token: `${value}-NOT`, reason: 'unknown_token' }),
      ]);
      const later = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
      const inRange = await tokenCall(
        'GET',
        `decisions?filter[controller_uuid]=${controllerUuid}&filter[decided_from]=${encodeURIComponent(from)}` +
          `&filter[decided_to]=${later}`,
      );
      expect(inRange.body.decisions).toHaveLength(3);
      const afterwards = await tokenCall(
        'GET',
        `decisions?filter[controller_uuid]=${controllerUuid}&filter[decided_from]=${later}`,
      );
      expect(afterwards.body.decisions).toEqual([]);

      const theirs = await tokenCall(
        'GET',
        `decisions?filter[controller_uuid]=${controllerUuid}`,
        undefined,
        rivalOps,
      );
      expect(theirs.status).toBe(200);
      expect(theirs.body.decisions).toEqual([]);
      const tokens = await usersWithRoles(platform, api, 'acme', {
        'token-reader': 'authorization:id-tokens:list',
      });
      const refused = await tokenCall('GET', 'decisions', undefined, tokens['token-reader']);
      expect(refused.status).toBe(403);
    });
  });
});
