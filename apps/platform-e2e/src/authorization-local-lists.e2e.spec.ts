import type { ControllerView, LocationView } from '@cpc/contracts';
import type { Command, CommandParameters, CreateCommandRequest, PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  onlineChargePoint,
  OpenApiResponseValidator,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  unique,
} from '@cpc/testing';
import {
  COMMANDS_PATH,
  createdCommand,
  endedCommand,
  issuesOf,
  sdkTestUser,
} from './support/sdk-test-client.js';

type Protocol = 'ocpp1.6' | 'ocpp2.0.1';

interface SentList {
  listVersion: number;
  updateType: string;
  entries: { value: string; status?: string }[];
}

/**
 * Local authorization lists end to end: send_local_list commands to real, strict ocpp-rpc charge points (2.0.1 and
 * 1.6), a list of 5,000 tokens sent in full and then differentially, the version recorded only when the charge point
 * answers Accepted, a VersionMismatch followed by a full update, and tenancy. The commands go through the typed SDK
 * (libs/sdk); every response is checked against the served OpenAPI document.
 */
describe('local authorization lists', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let ops: string;
  let rival: string;
  let data: AssetsTestData;
  /** The users of the tests by the SDK: acme's ops (assets, control, authorization) and rival's. */
  let opsSdk: PlatformClient;
  let rivalSdk: PlatformClient;

  const tokens = (method: string, path: string, body?: unknown, token = ops) =>
    api.call(method, `/api/v1/authorization/${path}`, { token, ...(body === undefined ? {} : { body }) });

  const createToken = async (body: Record<string, unknown>, token = ops) => {
    const response = await tokens('POST', 'id-tokens', { type: 'iso14443', ...body }, token);
    expect(response.status).toBe(201);
    return response.body.id_token as { uuid: string; id_token: string };
  };

  const sendLocalListBody = (
    controller: ControllerView,
    parameters: CommandParameters<'send_local_list'>,
  ): CreateCommandRequest => ({
    type: 'send_local_list',
    target_type: 'controller',
    target_uuid: controller.uuid,
    parameters,
  });

  const sendLocalList = async (
    controller: ControllerView,
    parameters: CommandParameters<'send_local_list'>,
  ) => {
    const command = await createdCommand(opsSdk, sendLocalListBody(controller, parameters));
    return endedCommand(opsSdk, command.command_uuid);
  };

  /** Answers SendLocalList with the statuses given in turn (then Accepted); returns the lists received, in order. */
  function answerLists(cp: ChargePoint, protocol: Protocol, statuses: string[] = []): SentList[] {
    const received: SentList[] = [];
    cp.handle('SendLocalList', ({ params }) => {
      const payload = params as Record<string, unknown>;
      const list = (payload.localAuthorizationList ?? []) as Record<string, Record<string, string>>[];
      received.push(
        protocol === 'ocpp1.6'
          ? {
              listVersion: payload.listVersion as number,
              updateType: payload.updateType as string,
              entries: list.map((entry) => ({
                value: entry.idTag as unknown as string,
                status: entry.idTagInfo?.status,
              })),
            }
          : {
              listVersion: payload.versionNumber as number,
              updateType: payload.updateType as string,
              entries: list.map((entry) => ({
                value: entry.idToken.idToken,
                status: entry.idTokenInfo?.status,
              })),
            },
      );
      return { status: statuses.shift() ?? 'Accepted' };
    });
    return received;
  }

  async function connected(protocol: Protocol): Promise<{
    location: LocationView;
    controller: ControllerView;
    cp: ChargePoint;
  }> {
    const { location, controller } = await data.site(1);
    const cp = await onlineChargePoint({ ocppUrl: platform.ocppUrl, api, token: ops, controller, protocol });
    return { location, controller, cp };
  }

  const expectAnswered = (command: Command, status: 'accepted' | 'rejected', resultStatus: string) => {
    expect(command).toMatchObject({ status, result: expect.objectContaining({ status: resultStatus }) });
  };

  beforeAll(async () => {
    // A generous start-up wait: the shared machine runs several platforms at once.
    platform = await startPlatformUnderTest({
      env: { OCPP_CALL_TIMEOUT_MS: '10000' },
      readyTimeoutMs: 300_000,
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    ({ ops } = await tenantWithUsers(platform, api, 'acme', { ops: 'asset,control,authorization' }));
    ({ rival } = await tenantWithUsers(platform, api, 'rival', { rival: 'asset,control,authorization' }));
    data = new AssetsTestData(api, ops);
    const validator = await OpenApiResponseValidator.fetch(platform.apiUrl);
    opsSdk = await sdkTestUser(platform.apiUrl, 'acme', 'ops', validator);
    rivalSdk = await sdkTestUser(platform.apiUrl, 'rival', 'rival', validator);
  }, 900_000);

  afterAll(() => platform?.stop());

  describe('ocpp2.0.1: 5,000 tokens', () => {
    let controller: ControllerView;
    let cp: ChargePoint;
    let location: LocationView;
    let prefix: string;
    let here: { uuid: string; id_token: string };

    beforeAll(async () => {
      ({ location, controller, cp } = await connected('ocpp2.0.1'));
      prefix = unique('LL');
      const imported = await tokens('POST', 'id-tokens:import', {
        id_tokens: Array.from({ length: 5000 }, (_, index) => ({
          id_token: `${prefix}-${index}`,
          type: 'iso14443',
        })),
      });
      expect(imported.status).toBe(200);
      here = await createToken({ id_token: `${prefix}-here`, allowed_location_uuids: [location.uuid] });
      const elsewhere = await data.location();
      await createToken({ id_token: `${prefix}-elsewhere`, allowed_location_uuids: [elsewhere.uuid] });
    }, 120_000);

    afterAll(() => cp?.close({ force: true }));

    const ours = (list: SentList) => list.entries.filter((entry) => entry.value.startsWith(`${prefix}-`));

    it('sends the full list, then only what changed; a version is recorded only when Accepted', async () => {
      const received = answerLists(cp, 'ocpp2.0.1', ['Accepted', 'Accepted', 'Failed']);

      const full = await sendLocalList(controller, { update_type: 'full' });
      expectAnswered(full, 'accepted', 'Accepted');
      expect(received[0]).toMatchObject({ listVersion: 1, updateType: 'Full' });
      // Every token allowed here (the import and the one restricted to this location), not the one elsewhere.
      expect(ours(received[0])).toHaveLength(5001);
      expect(ours(received[0]).map((entry) => entry.value)).toContain(here.id_token);
      expect(ours(received[0]).map((entry) => entry.value)).not.toContain(`${prefix}-elsewhere`);

      const blocked = (await tokens('GET', `id-tokens?filter[id_token]=${prefix}-1&limit=1`)).body
        .id_tokens[0];
      expect((await tokens('PATCH', `id-tokens/${blocked.uuid}`, { status: 'blocked' })).status).toBe(200);
      const gone = (await tokens('GET', `id-tokens?filter[id_token]=${prefix}-2&limit=1`)).body.id_tokens[0];
      expect((await tokens('DELETE', `id-tokens/${gone.uuid}`)).status).toBe(200);
      const added = await createToken({ id_token: `${prefix}-added` });

      const differential = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(differential, 'accepted', 'Accepted');
      expect(received[1]).toMatchObject({ listVersion: 2, updateType: 'Differential' });
      expect(ours(received[1])).toEqual(
        expect.arrayContaining([
          { value: `${prefix}-1`, status: 'Blocked' },
          { value: added.id_token, status: 'Accepted' },
          { value: `${prefix}-2`, status: undefined },
        ]),
      );
      expect(ours(received[1])).toHaveLength(3);

      // Failed: not recorded, so the next update has the same version and still carries the change.
      await tokens('PATCH', `id-tokens/${added.uuid}`, { status: 'expired' });
      const failed = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(failed, 'rejected', 'Failed');
      expect(received[2]).toMatchObject({ listVersion: 3, updateType: 'Differential' });
      const retried = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(retried, 'accepted', 'Accepted');
      expect(received[3]).toMatchObject({ listVersion: 3, updateType: 'Differential' });
      expect(ours(received[3])).toEqual([{ value: added.id_token, status: 'Expired' }]);

      // Nothing changed since version 3: an empty differential update, version 4.
      const empty = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(empty, 'accepted', 'Accepted');
      expect(received[4]).toMatchObject({ listVersion: 4, updateType: 'Differential', entries: [] });
    }, 120_000);

    it('follows a VersionMismatch with the full list when the command asks for it', async () => {
      const received = answerLists(cp, 'ocpp2.0.1', ['VersionMismatch', 'VersionMismatch']);
      const refused = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(refused, 'rejected', 'VersionMismatch');
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ listVersion: 5, updateType: 'Differential' });

      const mended = await sendLocalList(controller, {
        update_type: 'differential',
        full_on_version_mismatch: true,
      });
      expectAnswered(mended, 'accepted', 'Accepted');
      expect(mended.result).toMatchObject({
        response: { responses: [{ status: 'VersionMismatch' }, { status: 'Accepted' }] },
      });
      expect(received.slice(1).map(({ listVersion, updateType }) => ({ listVersion, updateType }))).toEqual([
        { listVersion: 5, updateType: 'Differential' },
        { listVersion: 5, updateType: 'Full' },
      ]);
      expect(ours(received[2])).toHaveLength(5001);

      // The full update is the recorded list now: version 6 next, with nothing to change.
      const next = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(next, 'accepted', 'Accepted');
      expect(received[3]).toMatchObject({ listVersion: 6, updateType: 'Differential', entries: [] });
    }, 120_000);

    it('keeps tenants apart: no list for another tenant, no token of another tenant', async () => {
      const rivalToken = await createToken({ id_token: unique('RIVAL') }, rival);
      const foreignTarget = await rivalSdk.api.POST(COMMANDS_PATH, {
        body: sendLocalListBody(controller, { update_type: 'full' }),
      });
      expect(foreignTarget.response.status).toBe(422);
      expect(issuesOf(foreignTarget.error)).toEqual([
        expect.objectContaining({ errorKey: 'not_found', parameter: 'target_uuid' }),
      ]);

      const foreignToken = await opsSdk.api.POST(COMMANDS_PATH, {
        body: sendLocalListBody(controller, {
          update_type: 'full',
          id_token_uuids: [here.uuid, rivalToken.uuid],
        }),
      });
      expect(foreignToken.response.status).toBe(422);
      expect(issuesOf(foreignToken.error)).toEqual([
        expect.objectContaining({ errorKey: 'not_found', parameter: 'parameters.id_token_uuids[1]' }),
      ]);

      // Untyped escape: an update_type the document does not allow, which the typed client cannot send.
      const invalid = await api.call('POST', COMMANDS_PATH, {
        token: ops,
        body: {
          type: 'send_local_list',
          target_type: 'controller',
          target_uuid: controller.uuid,
          parameters: { update_type: 'partial' },
        },
      });
      expect(invalid.status).toBe(422);
      expect(invalid.body.errors).toEqual([
        expect.objectContaining({ errorKey: 'invalid_value', parameter: 'parameters.update_type' }),
      ]);
    });
  });

  describe('ocpp1.6', () => {
    it('sends the named tokens with listVersion, leaves out values too long for an idTag', async () => {
      const { controller, cp } = await connected('ocpp1.6');
      try {
        const received = answerLists(cp, 'ocpp1.6');
        const short = await createToken({ id_token: unique('S16') });
        const long = await createToken({ id_token: `${unique('LONG')}-${'x'.repeat(20)}` });
        const full = await sendLocalList(controller, {
          update_type: 'full',
          id_token_uuids: [short.uuid, long.uuid],
        });
        expectAnswered(full, 'accepted', 'Accepted');
        expect(received[0]).toEqual({
          listVersion: 1,
          updateType: 'Full',
          entries: [{ value: short.id_token, status: 'Accepted' }],
        });

        await tokens('PATCH', `id-tokens/${short.uuid}`, { status: 'blocked' });
        const differential = await sendLocalList(controller, {
          update_type: 'differential',
          id_token_uuids: [short.uuid, long.uuid],
        });
        expectAnswered(differential, 'accepted', 'Accepted');
        expect(received[1]).toEqual({
          listVersion: 2,
          updateType: 'Differential',
          entries: [{ value: short.id_token, status: 'Blocked' }],
        });
      } finally {
        await cp.close({ force: true });
      }
    }, 60_000);
  });
});
