import type { ControllerView, LocationView } from '@cpc/contracts';
import type { Command, CommandParameters, CreateCommandRequest, PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  eventually,
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

/** A SendLocalList part as a test compares it: version, update type and how many entries it carried. */
const shapeOf = ({ listVersion, updateType, entries }: SentList) => ({
  listVersion,
  updateType,
  entries: entries.length,
});

/**
 * A charge point's local authorization list as OCPP keeps it: a Full update replaces the list, a Differential one
 * adds, replaces and (entries without info) removes, and a Differential update whose version is not above the one
 * held is answered VersionMismatch (OCPP 2.0.1 D01.FR.19). `next` overrides the answers in turn (an answer other
 * than Accepted changes nothing); `onPart` may take over a part (the connection dropped: it never answers).
 */
class LocalListHolder {
  version = 0;
  /** Value → status. */
  readonly list = new Map<string, string>();
  readonly received: SentList[] = [];
  next: string[] = [];
  onPart?: (part: SentList) => Promise<never> | undefined;

  constructor(cp: ChargePoint, protocol: Protocol, from?: LocalListHolder) {
    if (from) {
      this.version = from.version;
      for (const [value, status] of from.list) this.list.set(value, status);
    }
    cp.handle('SendLocalList', ({ params }) => {
      const part = sentList(protocol, params as Record<string, unknown>);
      this.received.push(part);
      const taken = this.onPart?.(part);
      if (taken) return taken;
      const status = this.next.shift() ?? 'Accepted';
      return { status: status === 'Accepted' ? this.apply(part) : status };
    });
  }

  /** The parts received since `before` (a count of parts). */
  since(before: number): SentList[] {
    return this.received.slice(before);
  }

  private apply(part: SentList): string {
    if (part.updateType === 'Differential' && part.listVersion <= this.version) return 'VersionMismatch';
    if (part.updateType === 'Full') this.list.clear();
    for (const entry of part.entries) {
      if (entry.status === undefined) this.list.delete(entry.value);
      else this.list.set(entry.value, entry.status);
    }
    this.version = part.listVersion;
    return 'Accepted';
  }
}

function sentList(protocol: Protocol, payload: Record<string, unknown>): SentList {
  const list = (payload.localAuthorizationList ?? []) as Record<string, Record<string, string>>[];
  return protocol === 'ocpp1.6'
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
        entries: list.map((entry) => ({ value: entry.idToken.idToken, status: entry.idTokenInfo?.status })),
      };
}

/**
 * Local authorization lists end to end: send_local_list commands to real, strict ocpp-rpc charge points (2.0.1 and
 * 1.6), a list of 5,000 tokens sent in full and then differentially in parts of the default 250 entries, 2,500 tokens
 * to charge points that reported taking 1,000 per message (a part refused mid-way, the connection dropped mid-way),
 * the version recorded only for what the charge point accepted, a VersionMismatch followed by a full update, and
 * tenancy. The commands go through the typed SDK
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
  let validator: OpenApiResponseValidator;

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
    validator = await OpenApiResponseValidator.fetch(platform.apiUrl);
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
    let holder: LocalListHolder;

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
    /** 5,001 tokens in parts of the default 250: 21 parts from `version`, the first of type `first`. */
    const defaultParts = (version: number, first: string) =>
      Array.from({ length: 21 }, (_, index) => ({
        listVersion: version + index,
        updateType: index === 0 ? first : 'Differential',
        entries: index === 20 ? expect.any(Number) : 250,
      }));

    it('sends the full list in parts of 250, then only what changed; a version is recorded only when Accepted', async () => {
      holder = new LocalListHolder(cp, 'ocpp2.0.1');

      const full = await sendLocalList(controller, { update_type: 'full' });
      expectAnswered(full, 'accepted', 'Accepted');
      // No ItemsPerMessage reported: the default 250 entries per message, one version per part.
      expect(holder.received.map(shapeOf)).toEqual(defaultParts(1, 'Full'));
      expect(full.result).toMatchObject({ response: { responses: expect.any(Array) } });
      const sent = holder.received.flatMap(ours);
      // Every token allowed here (the import and the one restricted to this location), not the one elsewhere.
      expect(sent).toHaveLength(5001);
      expect(sent.map((entry) => entry.value)).toContain(here.id_token);
      expect(sent.map((entry) => entry.value)).not.toContain(`${prefix}-elsewhere`);
      expect(holder.version).toBe(21);

      const blocked = (await tokens('GET', `id-tokens?filter[id_token]=${prefix}-1&limit=1`)).body
        .id_tokens[0];
      expect((await tokens('PATCH', `id-tokens/${blocked.uuid}`, { status: 'blocked' })).status).toBe(200);
      const gone = (await tokens('GET', `id-tokens?filter[id_token]=${prefix}-2&limit=1`)).body.id_tokens[0];
      expect((await tokens('DELETE', `id-tokens/${gone.uuid}`)).status).toBe(200);
      const added = await createToken({ id_token: `${prefix}-added` });

      let before = holder.received.length;
      const differential = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(differential, 'accepted', 'Accepted');
      const [changes] = holder.since(before);
      expect(holder.since(before)).toHaveLength(1);
      expect(changes).toMatchObject({ listVersion: 22, updateType: 'Differential' });
      expect(ours(changes)).toEqual(
        expect.arrayContaining([
          { value: `${prefix}-1`, status: 'Blocked' },
          { value: added.id_token, status: 'Accepted' },
          { value: `${prefix}-2`, status: undefined },
        ]),
      );
      expect(ours(changes)).toHaveLength(3);

      // Failed: not recorded, so the next update has the same version and still carries the change.
      await tokens('PATCH', `id-tokens/${added.uuid}`, { status: 'expired' });
      before = holder.received.length;
      holder.next = ['Failed'];
      const failed = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(failed, 'rejected', 'Failed');
      expect(holder.since(before).map(shapeOf)).toEqual([
        { listVersion: 23, updateType: 'Differential', entries: 1 },
      ]);
      before = holder.received.length;
      const retried = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(retried, 'accepted', 'Accepted');
      expect(holder.since(before)).toEqual([
        {
          listVersion: 23,
          updateType: 'Differential',
          entries: [{ value: added.id_token, status: 'Expired' }],
        },
      ]);

      // Nothing changed since version 23: an empty differential update, version 24.
      before = holder.received.length;
      const empty = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(empty, 'accepted', 'Accepted');
      expect(holder.since(before)).toEqual([{ listVersion: 24, updateType: 'Differential', entries: [] }]);
      expect(holder.version).toBe(24);
    }, 120_000);

    it('follows a VersionMismatch with the full list when the command asks for it', async () => {
      let before = holder.received.length;
      holder.next = ['VersionMismatch'];
      const refused = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(refused, 'rejected', 'VersionMismatch');
      expect(holder.since(before).map(shapeOf)).toEqual([
        { listVersion: 25, updateType: 'Differential', entries: 0 },
      ]);

      before = holder.received.length;
      holder.next = ['VersionMismatch'];
      const mended = await sendLocalList(controller, {
        update_type: 'differential',
        full_on_version_mismatch: true,
      });
      expectAnswered(mended, 'accepted', 'Accepted');
      expect(mended.result).toMatchObject({
        response: {
          responses: [
            { status: 'VersionMismatch' },
            ...Array.from({ length: 21 }, () => ({ status: 'Accepted' })),
          ],
        },
      });
      expect(holder.since(before).map(shapeOf)).toEqual([
        { listVersion: 25, updateType: 'Differential', entries: 0 },
        ...defaultParts(25, 'Full'),
      ]);
      expect(holder.since(before + 1).flatMap(ours)).toHaveLength(5001);

      // The full update is the recorded list now: version 46 next, with nothing to change.
      before = holder.received.length;
      const next = await sendLocalList(controller, { update_type: 'differential' });
      expectAnswered(next, 'accepted', 'Accepted');
      expect(holder.since(before)).toEqual([{ listVersion: 46, updateType: 'Differential', entries: [] }]);
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

  describe.each<Protocol>(['ocpp1.6', 'ocpp2.0.1'])(
    '%s: a charge point that takes 1,000 entries per message',
    (protocol) => {
      const slug = protocol === 'ocpp1.6' ? 'parts16' : 'parts201';
      let token: string;
      let sdk: PlatformClient;
      let controller: ControllerView;
      let cp: ChargePoint;
      let holder: LocalListHolder;
      let prefix: string;
      /** The tenant's tokens as the charge point's list should hold them: value → status. */
      const expected = new Map<string, string>();

      const importTokens = async (values: string[], status: string) => {
        const imported = await api.call('POST', '/api/v1/authorization/id-tokens:import', {
          token,
          body: { id_tokens: values.map((id_token) => ({ id_token, type: 'iso14443', status })) },
        });
        expect(imported.status).toBe(200);
        for (const value of values) expected.set(value, status === 'blocked' ? 'Blocked' : 'Accepted');
      };
      const values = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, index) => `${prefix}-${from + index}`);

      /** A send_local_list as this tenant: the ended command and the parts the charge point received for it. */
      const send = async (parameters: CommandParameters<'send_local_list'>) => {
        const before = holder.received.length;
        const command = await createdCommand(sdk, sendLocalListBody(controller, parameters));
        const ended = await endedCommand(sdk, command.command_uuid);
        return { command: ended, parts: holder.since(before) };
      };

      const connect = () =>
        onlineChargePoint({ ocppUrl: platform.ocppUrl, api, token, controller, protocol, tenantSlug: slug });

      const expectHoldsTheTenantsTokens = () =>
        expect(new Map([...holder.list].sort())).toEqual(new Map([...expected].sort()));

      beforeAll(async () => {
        ({ ops: token } = await tenantWithUsers(platform, api, slug, { ops: 'asset,control,authorization' }));
        sdk = await sdkTestUser(platform.apiUrl, slug, 'ops', validator);
        ({ controller } = await new AssetsTestData(api, token).site(1));
        cp = await connect();
        holder = new LocalListHolder(cp, protocol);

        // The limit as the charge point reports it (1.6 GetConfiguration, 2.0.1 GetVariables), stored by the platform.
        const key = protocol === 'ocpp1.6' ? 'SendLocalListMaxLength' : 'LocalAuthListCtrlr.ItemsPerMessage';
        cp.handle('GetConfiguration', () => ({
          configurationKey: [{ key: 'SendLocalListMaxLength', readonly: true, value: '1000' }],
        }));
        cp.handle('GetVariables', () => ({
          getVariableResult: [
            {
              attributeStatus: 'Accepted',
              attributeValue: '1000',
              component: { name: 'LocalAuthListCtrlr' },
              variable: { name: 'ItemsPerMessage' },
            },
          ],
        }));
        const refresh = await createdCommand(sdk, {
          type: 'refresh_configuration',
          target_type: 'controller',
          target_uuid: controller.uuid,
          parameters: { keys: [key] },
        });
        expect((await endedCommand(sdk, refresh.command_uuid)).status).toBe('accepted');
        await eventually(
          () => api.call('GET', `/api/v1/assets/controllers/${controller.uuid}/configuration`, { token }),
          (response) =>
            (response.body.configuration ?? []).some(
              (entry: { key: string; value: string }) => entry.key === key && entry.value === '1000',
            ),
        );

        prefix = unique('P');
        await importTokens(values(0, 2500), 'accepted');
      }, 120_000);

      afterAll(() => cp?.close({ force: true }));

      it('sends 2,500 tokens in full, then what changed differentially, in parts of at most 1,000', async () => {
        const full = await send({ update_type: 'full' });
        expectAnswered(full.command, 'accepted', 'Accepted');
        expect(full.parts.map(shapeOf)).toEqual([
          { listVersion: 1, updateType: 'Full', entries: 1000 },
          { listVersion: 2, updateType: 'Differential', entries: 1000 },
          { listVersion: 3, updateType: 'Differential', entries: 500 },
        ]);
        expect(full.command.result).toMatchObject({
          response: { responses: [{ status: 'Accepted' }, { status: 'Accepted' }, { status: 'Accepted' }] },
        });
        expectHoldsTheTenantsTokens();

        // One blocked, one deleted, 1,200 added: 1,201 tokens and a removal, in two parts.
        const [first, second] = values(1, 3);
        const uuidOf = async (value: string) =>
          (
            await api.call('GET', `/api/v1/authorization/id-tokens?filter[id_token]=${value}&limit=1`, {
              token,
            })
          ).body.id_tokens[0].uuid as string;
        const patched = await api.call('PATCH', `/api/v1/authorization/id-tokens/${await uuidOf(first)}`, {
          token,
          body: { status: 'blocked' },
        });
        expect(patched.status).toBe(200);
        expected.set(first, 'Blocked');
        const deleted = await api.call('DELETE', `/api/v1/authorization/id-tokens/${await uuidOf(second)}`, {
          token,
        });
        expect(deleted.status).toBe(200);
        expected.delete(second);
        await importTokens(values(2500, 3700), 'accepted');

        const differential = await send({ update_type: 'differential' });
        expectAnswered(differential.command, 'accepted', 'Accepted');
        expect(differential.parts.map(shapeOf)).toEqual([
          { listVersion: 4, updateType: 'Differential', entries: 1000 },
          { listVersion: 5, updateType: 'Differential', entries: 202 },
        ]);
        expect(differential.parts[1].entries.at(-1)).toEqual({ value: second, status: undefined });
        expectHoldsTheTenantsTokens();
      }, 120_000);

      it('a part refused mid-way: the parts accepted before it are recorded, the next update carries the rest', async () => {
        await importTokens(values(0, 1500), 'blocked');
        holder.next = ['Accepted', 'Failed'];
        const refused = await send({ update_type: 'differential' });
        expectAnswered(refused.command, 'rejected', 'Failed');
        expect(refused.command.result).toMatchObject({
          response: { responses: [{ status: 'Accepted' }, { status: 'Failed' }] },
        });
        expect(refused.parts.map(shapeOf)).toEqual([
          { listVersion: 6, updateType: 'Differential', entries: 1000 },
          { listVersion: 7, updateType: 'Differential', entries: 499 },
        ]);
        expect(holder.version).toBe(6);

        const rest = await send({ update_type: 'differential' });
        expectAnswered(rest.command, 'accepted', 'Accepted');
        expect(rest.parts).toEqual([{ ...refused.parts[1], listVersion: 7 }]);
        expectHoldsTheTenantsTokens();
      }, 120_000);

      it('the connection drops after the first part: the next update carries the rest', async () => {
        await importTokens(values(0, 1500), 'accepted');
        holder.onPart = (part) => {
          if (part.listVersion !== 9) return undefined;
          void cp.close({ force: true });
          return new Promise<never>(() => undefined);
        };
        const dropped = await send({ update_type: 'differential' });
        expect(dropped.command).toMatchObject({ status: 'failed', result: { error: 'connection_lost' } });
        expect(dropped.parts.map(shapeOf)).toEqual([
          { listVersion: 8, updateType: 'Differential', entries: 1000 },
          { listVersion: 9, updateType: 'Differential', entries: 500 },
        ]);
        expect(holder.version).toBe(8);

        // The charge point comes back holding version 8.
        cp = await connect();
        holder = new LocalListHolder(cp, protocol, holder);
        const rest = await send({ update_type: 'differential' });
        expectAnswered(rest.command, 'accepted', 'Accepted');
        expect(rest.parts).toEqual([{ ...dropped.parts[1], listVersion: 9 }]);
        expectHoldsTheTenantsTokens();
      }, 120_000);
    },
  );

  describe('ocpp1.6', () => {
    it('sends the named tokens with listVersion, leaves out values too long for an idTag', async () => {
      const { controller, cp } = await connected('ocpp1.6');
      try {
        const { received } = new LocalListHolder(cp, 'ocpp1.6');
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
