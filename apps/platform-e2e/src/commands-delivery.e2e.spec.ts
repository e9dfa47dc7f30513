import { randomUUID } from 'node:crypto';
import type { ControllerView, PlugView } from '@cpc/contracts';
import { buildOcppCall, type ResolvedTarget } from '@cpc/ocpp-commands';
import type { Command, CreateCommandRequest, PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  createRpcError,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';
import {
  createdCommand,
  endedCommand,
  issuesOf,
  readCommand,
  sdkTestUser,
} from './support/sdk-test-client.js';

type Protocol = 'ocpp1.6' | 'ocpp2.0.1';
type TargetKind = 'controller' | 'connector' | 'charging_session';

const COMMANDS = '/api/v1/control/commands';
/** Short, so the timeout case does not hold the suite up; commands wait and are retried on the same scale. */
const CALL_TIMEOUT_MS = 2000;

/** A command body, typed by the SDK, but for its target's UUID (known once the test's charge point is set up). */
type WithoutTargetUuid<Request> = Request extends unknown ? Omit<Request, 'target_uuid'> : never;
type CommandCase = WithoutTargetUuid<CreateCommandRequest>;

/** One valid command per type, on a target it allows. */
const COMMAND_CASES: CommandCase[] = [
  { type: 'soft_reset', target_type: 'controller' },
  { type: 'hard_reset', target_type: 'controller' },
  { type: 'clear_cache', target_type: 'controller' },
  { type: 'change_availability', target_type: 'connector', parameters: { availability: 'inoperative' } },
  { type: 'unlock', target_type: 'connector' },
  { type: 'identify', target_type: 'controller' },
  {
    type: 'update_firmware',
    target_type: 'controller',
    parameters: {
      location: 'https://firmware.example/cp-2.1.bin',
      retrieve_at: '2030-01-01T02:00:00Z',
      retries: 3,
    },
  },
  {
    type: 'request_diagnostics',
    target_type: 'controller',
    parameters: { location: 'ftp://logs.example/upload' },
  },
  { type: 'refresh_configuration', target_type: 'controller' },
  { type: 'remote_start', target_type: 'connector', parameters: { id_tag: 'RFID-START' } },
  { type: 'remote_stop', target_type: 'charging_session' },
  {
    type: 'reserve',
    target_type: 'connector',
    parameters: { id_tag: 'RFID-RES', expires_at: '2030-06-01T12:00:00Z', reservation_id: 42 },
  },
  { type: 'cancel_reservation', target_type: 'controller', parameters: { reservation_id: 42 } },
  {
    type: 'set_charging_profile',
    target_type: 'charging_session',
    parameters: {
      charging_profile: {
        id: 7,
        stack_level: 1,
        purpose: 'tx_profile',
        kind: 'relative',
        schedule: { charging_rate_unit: 'A', periods: [{ start_period: 0, limit: 16 }] },
      },
    },
  },
  {
    type: 'clear_charging_profile',
    target_type: 'connector',
    parameters: { purpose: 'tx_default_profile' },
  },
];

/** What each charge point answers per action: accepting, and (where the action can be refused) refusing. */
const ANSWERS: Record<Protocol, Record<string, { accept: [unknown, string]; reject?: [unknown, string] }>> = {
  'ocpp1.6': {
    Reset: { accept: [{ status: 'Accepted' }, 'Accepted'], reject: [{ status: 'Rejected' }, 'Rejected'] },
    ClearCache: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    ChangeAvailability: {
      accept: [{ status: 'Scheduled' }, 'Scheduled'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    UnlockConnector: {
      accept: [{ status: 'Unlocked' }, 'Unlocked'],
      reject: [{ status: 'UnlockFailed' }, 'UnlockFailed'],
    },
    TriggerMessage: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'NotImplemented' }, 'NotImplemented'],
    },
    // Any valid UpdateFirmware.conf accepts (stand-in Accepted); it cannot be refused.
    UpdateFirmware: { accept: [{}, 'Accepted'] },
    GetDiagnostics: { accept: [{ fileName: 'diag-1.zip' }, 'Accepted'], reject: [{}, 'Rejected'] },
    GetConfiguration: { accept: [{ configurationKey: [], unknownKey: [] }, 'Accepted'] },
    RemoteStartTransaction: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    RemoteStopTransaction: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    ReserveNow: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Occupied' }, 'Occupied'],
    },
    CancelReservation: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    SetChargingProfile: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'NotSupported' }, 'NotSupported'],
    },
    ClearChargingProfile: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Unknown' }, 'Unknown'],
    },
  },
  'ocpp2.0.1': {
    Reset: { accept: [{ status: 'Scheduled' }, 'Scheduled'], reject: [{ status: 'Rejected' }, 'Rejected'] },
    ClearCache: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    ChangeAvailability: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    UnlockConnector: {
      accept: [{ status: 'Unlocked' }, 'Unlocked'],
      reject: [{ status: 'OngoingAuthorizedTransaction' }, 'OngoingAuthorizedTransaction'],
    },
    TriggerMessage: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    UpdateFirmware: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'InvalidCertificate' }, 'InvalidCertificate'],
    },
    GetLog: {
      accept: [{ status: 'Accepted', filename: 'log-1.zip' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    GetBaseReport: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'NotSupported' }, 'NotSupported'],
    },
    RequestStartTransaction: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    RequestStopTransaction: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    ReserveNow: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Unavailable' }, 'Unavailable'],
    },
    CancelReservation: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    SetChargingProfile: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Rejected' }, 'Rejected'],
    },
    ClearChargingProfile: {
      accept: [{ status: 'Accepted' }, 'Accepted'],
      reject: [{ status: 'Unknown' }, 'Unknown'],
    },
  },
};

/** How the charge point behaves when the platform calls it. */
type Behaviour = 'accept' | 'reject' | 'call_error' | 'no_answer' | 'drop_connection';

interface Station {
  controller: ControllerView;
  plugs: PlugView[];
  cp: ChargePoint;
  sessionUuid: string;
  transactionId: string;
  received: { action: string; payload: unknown }[];
  behaviour: Behaviour;
}

/**
 * Commands delivered through the real platform to real, strict ocpp-rpc charge points (1.6 and 2.0.1): every type
 * reaching the charge point with the right action and payload, accepted and refused answers, CALLERROR, timeout,
 * dropped connection, offline charge points with and without validity, deleted targets. Every response is checked
 * against the served OpenAPI document; the API is used through the typed SDK (libs/sdk).
 */
describe('command delivery to charge points', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let data: AssetsTestData;
  /** acme's operator (assets and control), by the SDK. */
  let operator: PlatformClient;

  const create = (body: CreateCommandRequest) => createdCommand(operator, body);
  const read = (uuid: string) => readCommand(operator, uuid);
  const ended = (uuid: string) => endedCommand(operator, uuid);
  const controllerOf = async (uuid: string) =>
    (await operator.api.GET('/api/v1/assets/controllers/{uuid}', { params: { path: { uuid } } })).data
      ?.controller;
  const listCommands = (query: { 'filter[target_uuid]': string; limit?: number; include?: string }) =>
    operator.api.GET(COMMANDS, { params: { query } });

  const chargePoint = (identity: string, protocol: Protocol): ChargePoint =>
    ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity,
      password: OCPP_PASSWORD,
      protocols: [protocol],
    });

  /** Connects the station's charge point and answers every action by the station's current behaviour. */
  async function connect(station: Station, protocol: Protocol): Promise<void> {
    station.cp = chargePoint(station.controller.ocpp_identity, protocol);
    for (const action of Object.keys(ANSWERS[protocol])) {
      station.cp.handle(action, async ({ params }) => {
        station.received.push({ action, payload: params });
        switch (station.behaviour) {
          case 'call_error':
            throw createRpcError('NotSupported', 'not on this model');
          case 'no_answer':
            return new Promise(() => undefined);
          case 'drop_connection':
            await station.cp.close({ force: true });
            return new Promise(() => undefined);
          default:
            return (ANSWERS[protocol][action][station.behaviour] ?? ANSWERS[protocol][action].accept)[0];
        }
      });
    }
    await station.cp.connect();
    await eventually(
      () => controllerOf(station.controller.uuid),
      (controller) => controller?.connection_status === 'online',
    );
  }

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      env: {
        OCPP_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS),
        COMMAND_LEASE_MS: '3000',
        COMMAND_OFFLINE_RECHECK_MS: '1000',
        COMMAND_DISPATCH_INTERVAL_MS: '200',
      },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    const token = (await tenantWithUsers(platform, api, 'acme', { operator: 'asset,control' })).operator;
    data = new AssetsTestData(api, token);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator');
  }, 180_000);

  afterAll(() => platform?.stop());

  for (const protocol of ['ocpp1.6', 'ocpp2.0.1'] as const) {
    describe(protocol, () => {
      const station = { received: [], behaviour: 'accept' } as unknown as Station;

      beforeAll(async () => {
        const site = await data.site(2);
        station.controller = site.controller;
        station.plugs = site.plugs;
        await connect(station, protocol);
        station.transactionId = await startTransaction(station.cp, protocol);
        const sessions = await eventually(
          async () =>
            (
              await operator.api.GET('/api/v1/control/charging-sessions', {
                params: { query: { 'filter[controller_uuid]': station.controller.uuid } },
              })
            ).data?.charging_sessions,
          (found) => found?.length === 1,
        );
        station.sessionUuid = sessions![0].uuid;
      }, 60_000);

      afterAll(() => station.cp?.close({ force: true }));

      /** The target as the charge point numbers it: plug 2 (EVSE 2; on 2.0.1 the first connector of that EVSE). */
      const expectedTarget = (kind: TargetKind): ResolvedTarget => {
        if (kind === 'controller') return { targetType: 'controller' };
        if (kind === 'connector')
          return { targetType: 'connector', connectorId: protocol === 'ocpp1.6' ? 2 : 1, evseId: 2 };
        return protocol === 'ocpp1.6'
          ? {
              targetType: 'charging_session',
              transactionId: station.transactionId,
              connectorId: 2,
              evseId: null,
            }
          : {
              targetType: 'charging_session',
              transactionId: station.transactionId,
              connectorId: 1,
              evseId: 2,
            };
      };

      const targetUuid = (kind: TargetKind) =>
        kind === 'controller'
          ? station.controller.uuid
          : kind === 'connector'
            ? station.plugs[1].uuid
            : station.sessionUuid;

      /** The case's body with the station's target of its type. */
      const bodyOf = (commandCase: CommandCase): CreateCommandRequest => ({
        ...commandCase,
        target_uuid: targetUuid(commandCase.target_type),
      });

      async function run(behaviour: Behaviour, body: CreateCommandRequest) {
        station.behaviour = behaviour;
        station.received.length = 0;
        const command = await create(body);
        const done = await ended(command.command_uuid);
        return { command, done, received: [...station.received] };
      }

      it('delivers each of the 15 types with the right action and payload, and records the accepting answer', async () => {
        for (const commandCase of COMMAND_CASES) {
          const { type, target_type: target, parameters } = commandCase;
          const { command, done, received } = await run('accept', bodyOf(commandCase));
          const expected = buildOcppCall(
            protocol,
            { commandUuid: command.command_uuid, type, parameters },
            expectedTarget(target),
          );
          expect([type, received]).toEqual([type, [{ action: expected.action, payload: expected.payload }]]);
          const [answer, resultStatus] = ANSWERS[protocol][expected.action].accept;
          expect([type, done.status, done.result]).toEqual([
            type,
            'accepted',
            { status: resultStatus, response: answer },
          ]);
          expect(done.completed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        }
      });

      it('numbers connectors and transactions as the protocol does', async () => {
        const unlock = await run('accept', {
          type: 'unlock',
          target_type: 'connector',
          target_uuid: station.plugs[1].uuid,
        });
        const stop = await run('accept', {
          type: 'remote_stop',
          target_type: 'charging_session',
          target_uuid: station.sessionUuid,
        });
        if (protocol === 'ocpp1.6') {
          expect(unlock.received[0].payload).toEqual({ connectorId: 2 });
          expect(stop.received[0].payload).toEqual({ transactionId: Number(station.transactionId) });
        } else {
          expect(unlock.received[0].payload).toEqual({ evseId: 2, connectorId: 1 });
          expect(stop.received[0].payload).toEqual({ transactionId: station.transactionId });
        }
      });

      it('records refusing answers as rejected with the status the charge point sent', async () => {
        for (const commandCase of COMMAND_CASES) {
          const { type } = commandCase;
          const { done, received } = await run('reject', bodyOf(commandCase));
          const answer = ANSWERS[protocol][received[0].action];
          const [status, [response, resultStatus]] = answer.reject
            ? ['rejected', answer.reject]
            : ['accepted', answer.accept];
          expect([type, done.status, done.result]).toEqual([
            type,
            status,
            { status: resultStatus, response },
          ]);
        }
      });

      it('lists the answers only with include=response, and refuses other includes', async () => {
        const { command } = await run('accept', {
          type: 'clear_cache',
          target_type: 'controller',
          target_uuid: station.controller.uuid,
        });
        const query = { 'filter[target_uuid]': station.controller.uuid, limit: 1 };
        const plain = await listCommands(query);
        expect(plain.data!.commands[0]).toMatchObject({ command_uuid: command.command_uuid });
        expect(plain.data!.commands[0].result).toEqual({ status: 'Accepted' });
        const full = await listCommands({ ...query, include: 'response' });
        expect(full.data!.commands[0].result).toEqual({
          status: 'Accepted',
          response: { status: 'Accepted' },
        });
        const unknown = await listCommands({ ...query, include: 'response,parameters' });
        expect(unknown.response.status).toBe(422);
        expect(issuesOf(unknown.error)).toEqual([expect.objectContaining({ parameter: 'include' })]);
      });

      it('a CALLERROR fails the command with its code; no answer in time is a timeout', async () => {
        const reset: CreateCommandRequest = {
          type: 'soft_reset',
          target_type: 'controller',
          target_uuid: station.controller.uuid,
        };
        const callError = await run('call_error', reset);
        expect(callError.done).toMatchObject({ status: 'failed' });
        expect(callError.done.result).toEqual({ error: 'ocpp_not_supported' });
        const silent = await run('no_answer', reset);
        expect(silent.done).toMatchObject({ status: 'timeout' });
        expect(silent.done.result).toEqual({});
        expect(silent.received).toHaveLength(1);
      });

      it('a connection lost while the call is in flight fails the command', async () => {
        const { done, received } = await run('drop_connection', {
          type: 'clear_cache',
          target_type: 'controller',
          target_uuid: station.controller.uuid,
        });
        expect(received).toHaveLength(1);
        expect(done).toMatchObject({ status: 'failed', result: { error: 'connection_lost' } });
        station.behaviour = 'accept';
        await eventually(
          () => controllerOf(station.controller.uuid),
          (controller) => controller?.connection_status === 'offline',
        );
        await connect(station, protocol);
      });
    });
  }

  describe('offline charge points', () => {
    it('fails a command without validity at once, and one whose validity ends before the charge point connects', async () => {
      const { controller } = await data.site(0);
      const reset: CreateCommandRequest = {
        type: 'soft_reset',
        target_type: 'controller',
        target_uuid: controller.uuid,
      };
      const now = await create(reset);
      expect(now.status).toBe('pending');
      expect(await ended(now.command_uuid)).toMatchObject({
        status: 'failed',
        result: { error: 'charge_point_offline' },
      });
      const brief = await create({ ...reset, valid_for_seconds: 2 });
      expect((await read(brief.command_uuid)).status).toBe('pending');
      expect(await ended(brief.command_uuid)).toMatchObject({
        status: 'failed',
        result: { error: 'charge_point_offline' },
      });
    });

    it('delivers waiting commands in creation order when the charge point connects within their validity', async () => {
      for (const protocol of ['ocpp1.6', 'ocpp2.0.1'] as const) {
        const site = await data.site(1);
        const created: Command[] = [];
        const bodies: CreateCommandRequest[] = [
          { type: 'clear_cache', target_type: 'controller', target_uuid: site.controller.uuid },
          { type: 'unlock', target_type: 'connector', target_uuid: site.plugs[0].uuid },
          { type: 'soft_reset', target_type: 'controller', target_uuid: site.controller.uuid },
        ];
        for (const body of bodies) {
          created.push(await create({ ...body, valid_for_seconds: 120 }));
        }
        await new Promise((resolve) => setTimeout(resolve, 1500));
        for (const command of created) expect((await read(command.command_uuid)).status).toBe('pending');
        const station = {
          controller: site.controller,
          plugs: site.plugs,
          received: [],
          behaviour: 'accept',
        } as unknown as Station;
        await connect(station, protocol);
        for (const command of created) expect((await ended(command.command_uuid)).status).toBe('accepted');
        expect(station.received.map((call) => call.action)).toEqual([
          'ClearCache',
          'UnlockConnector',
          'Reset',
        ]);
        await station.cp.close({ force: true });
      }
    });

    it('fails waiting commands whose target is deleted: target_deleted, and they stay listed', async () => {
      const site = await data.site(1);
      const unlock = await create({
        type: 'unlock',
        target_type: 'connector',
        target_uuid: site.plugs[0].uuid,
        valid_for_seconds: 600,
      });
      const plugDeleted = await operator.api.DELETE('/api/v1/assets/plugs/{uuid}', {
        params: { path: { uuid: site.plugs[0].uuid } },
      });
      expect(plugDeleted.response.status).toBe(200);
      expect(await ended(unlock.command_uuid)).toMatchObject({
        status: 'failed',
        result: { error: 'target_deleted' },
      });

      const reset = await create({
        type: 'soft_reset',
        target_type: 'controller',
        target_uuid: site.controller.uuid,
        valid_for_seconds: 600,
      });
      const controllerDeleted = await operator.api.DELETE('/api/v1/assets/controllers/{uuid}', {
        params: { path: { uuid: site.controller.uuid } },
      });
      expect(controllerDeleted.response.status).toBe(200);
      expect(await ended(reset.command_uuid)).toMatchObject({
        status: 'failed',
        result: { error: 'target_deleted' },
      });
      const listed = await listCommands({ 'filter[target_uuid]': site.plugs[0].uuid });
      expect(listed.data!.commands.map((command) => command.command_uuid)).toEqual([unlock.command_uuid]);
    });
  });

  it('idempotency: a repeat with the same key does not deliver again', async () => {
    const station = { received: [], behaviour: 'accept' } as unknown as Station;
    const site = await data.site(0);
    station.controller = site.controller;
    await connect(station, 'ocpp1.6');
    const key = randomUUID();
    const body: CreateCommandRequest = {
      type: 'clear_cache',
      target_type: 'controller',
      target_uuid: site.controller.uuid,
    };
    const post = () => operator.api.POST(COMMANDS, { body, headers: { 'Idempotency-Key': key } });
    const first = await post();
    await ended(first.data!.command.command_uuid);
    const repeat = await post();
    expect(repeat.response.status).toBe(202);
    expect(repeat.data!.command).toMatchObject({
      command_uuid: first.data!.command.command_uuid,
      status: 'accepted',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(station.received).toHaveLength(1);
    await station.cp.close({ force: true });
  });
});

/** Starts a transaction on plug 2 (1.6 connector 2; 2.0.1 EVSE 2, connector 1); answers its OCPP transaction id. */
async function startTransaction(cp: ChargePoint, protocol: Protocol): Promise<string> {
  if (protocol === 'ocpp1.6') {
    await cp.call('BootNotification', { chargePointVendor: 'ACME', chargePointModel: 'Wallbox 16' });
    const { transactionId } = (await cp.call('StartTransaction', {
      connectorId: 2,
      idTag: 'RFID-16',
      meterStart: 1000,
      timestamp: new Date().toISOString(),
    })) as { transactionId: number };
    return String(transactionId);
  }
  await cp.call('BootNotification', {
    reason: 'PowerUp',
    chargingStation: { vendorName: 'ACME', model: 'Wallbox 201' },
  });
  const transactionId = randomUUID();
  await cp.call('TransactionEvent', {
    eventType: 'Started',
    timestamp: new Date().toISOString(),
    seqNo: 0,
    triggerReason: 'Authorized',
    transactionInfo: { transactionId },
    evse: { id: 2, connectorId: 1 },
    idToken: { idToken: 'RFID-201', type: 'ISO14443' },
  });
  return transactionId;
}
