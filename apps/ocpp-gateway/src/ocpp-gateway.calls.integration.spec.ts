import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import {
  AssetsSubjects,
  ChargePointEventSubjects,
  type ControllerDeletedEvent,
  OcppCallEventSubjects,
  type OcppCallReply,
  type OcppCallRequest,
  OcppGatewaySubjects,
} from '@cpc/contracts';
import { type EventRecorder, eventually, rawSocket, upgradeStatus } from '@cpc/testing';
import { CommandDeliveryLedger } from './calls/command-delivery.ledger.js';
import { ocppCallError } from './ocpp-rpc/ocpp-rpc.js';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  type ChargePoint,
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayForTest,
  startGatewayTestRig,
} from './testing/ocpp-gateway-test-bed.js';

const PASSWORD = 'correct-horse-battery-1';
const CALL_TIMEOUT_MS = 1000;

describe('ocpp-gateway: what the platform sends, across gateway instances', () => {
  let rig: GatewayTestRig;
  let gatewayA: RunningOcppGateway;
  let gatewayB: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  let platform: NatsConnection;
  const open: ChargePoint[] = [];
  let counter = 0;

  beforeAll(async () => {
    const env = { OCPP_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS), OCPP_PING_DEADLINE_MS: '1000' };
    rig = await startGatewayTestRig({ ...env, OCPP_GATEWAY_INSTANCE_ID: 'gw-a' });
    ({ gateway: gatewayA, services, events } = rig);
    gatewayB = await startGatewayForTest(rig.nats.url, { ...env, OCPP_GATEWAY_INSTANCE_ID: 'gw-b' });
    platform = await connect({ servers: rig.nats.url });
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((cp) => cp.close({ force: true })));
  });

  afterAll(async () => {
    await platform?.close();
    await gatewayB?.app.close();
    await rig?.stop();
  });

  function newController(): FakeController {
    counter += 1;
    return services.addController({
      tenantSlug: 'acme',
      identity: `CP-CALLS-${counter}`,
      password: PASSWORD,
    });
  }

  async function connectTo(
    gateway: RunningOcppGateway,
    controller: FakeController,
    protocol: 'ocpp1.6' | 'ocpp2.0.1',
    options: { strict?: boolean } = {},
  ): Promise<ChargePoint> {
    const cp = chargePoint({
      port: gateway.ocppPort,
      controller,
      protocols: [protocol],
      strict: options.strict,
    });
    open.push(cp);
    const from = events.mark;
    await cp.connect();
    // Once announced, the connection is also reachable: the gateway subscribed before it published the event.
    await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    return cp;
  }

  async function send(
    controller: FakeController,
    request: Partial<OcppCallRequest> = {},
  ): Promise<OcppCallReply> {
    const body: OcppCallRequest = {
      commandUuid: randomUUID(),
      type: 'soft_reset',
      parameters: {},
      target: { targetType: 'controller' },
      ...request,
    };
    const reply = await platform.request(
      OcppGatewaySubjects.call(controller.controllerUuid),
      JSON.stringify(body),
      {
        timeout: 3 * CALL_TIMEOUT_MS + 2000,
      },
    );
    return reply.json<OcppCallReply>();
  }

  it('delivers each call through the instance that holds the charge point, for both protocols', async () => {
    const onA = newController();
    const onB = newController();
    const cpA = await connectTo(gatewayA, onA, 'ocpp1.6');
    const cpB = await connectTo(gatewayB, onB, 'ocpp2.0.1');
    const receivedA: unknown[] = [];
    const receivedB: unknown[] = [];
    cpA.handle('Reset', ({ params }) => {
      receivedA.push(params);
      return Promise.resolve({ status: 'Accepted' });
    });
    cpB.handle('Reset', ({ params }) => {
      receivedB.push(params);
      return Promise.resolve({ status: 'Scheduled' });
    });

    for (let round = 0; round < 3; round++) {
      await expect(send(onA)).resolves.toEqual({
        outcome: 'answered',
        action: 'Reset',
        response: { status: 'Accepted' },
        status: 'accepted',
        resultStatus: 'Accepted',
      });
      await expect(send(onB)).resolves.toMatchObject({
        outcome: 'answered',
        action: 'Reset',
        status: 'accepted',
        resultStatus: 'Scheduled',
      });
    }
    expect(receivedA).toEqual([{ type: 'Soft' }, { type: 'Soft' }, { type: 'Soft' }]);
    expect(receivedB).toEqual([{ type: 'OnIdle' }, { type: 'OnIdle' }, { type: 'OnIdle' }]);
  });

  it('builds the payload from the command by the shared mapping (connector target, parameters)', async () => {
    const controller = newController();
    const cp = await connectTo(gatewayA, controller, 'ocpp2.0.1');
    let received: unknown;
    cp.handle('ChangeAvailability', ({ params }) => {
      received = params;
      return Promise.resolve({ status: 'Rejected' });
    });
    await expect(
      send(controller, {
        type: 'change_availability',
        parameters: { availability: 'inoperative' },
        target: { targetType: 'connector', connectorId: 2, evseId: 1 },
      }),
    ).resolves.toMatchObject({ outcome: 'answered', status: 'rejected', resultStatus: 'Rejected' });
    expect(received).toEqual({ operationalStatus: 'Inoperative', evse: { id: 1, connectorId: 2 } });
  });

  it('numbers a connector within its EVSE on 2.0.1 and station-wide on 1.6', async () => {
    const target = { targetType: 'connector', connectorId: 3, evseId: 2, evseConnectorId: 1 } as const;
    const received: Record<string, unknown> = {};
    for (const protocol of ['ocpp2.0.1', 'ocpp1.6'] as const) {
      const controller = newController();
      const cp = await connectTo(gatewayA, controller, protocol);
      cp.handle('UnlockConnector', ({ params }) => {
        received[protocol] = params;
        return Promise.resolve({ status: 'Unlocked' });
      });
      await expect(send(controller, { type: 'unlock', target })).resolves.toMatchObject({
        outcome: 'answered',
        status: 'accepted',
      });
    }
    expect(received).toEqual({ 'ocpp2.0.1': { evseId: 2, connectorId: 1 }, 'ocpp1.6': { connectorId: 3 } });
  });

  it('announces a call still unanswered after the delay with a call-sent event, before the answer', async () => {
    const controller = newController();
    const cp = await connectTo(gatewayA, controller, 'ocpp1.6');
    const commandUuid = randomUUID();
    let answeredAt = '';
    const sentEvent = events.waitFor(OcppCallEventSubjects.sent, (data) => data.commandUuid === commandUuid);
    // The charge point answers only once the event is out: the event cannot have waited for the answer.
    cp.handle('ClearCache', async () => {
      await sentEvent;
      answeredAt = new Date().toISOString();
      return { status: 'Accepted' };
    });
    await send(controller, { commandUuid, type: 'clear_cache' });
    const sent = await sentEvent;
    expect(sent.data).toEqual({
      commandUuid,
      controllerUuid: controller.controllerUuid,
      sentAt: expect.any(String),
    });
    expect(Date.parse(sent.data.sentAt as string)).toBeLessThanOrEqual(Date.parse(answeredAt));
    // Nothing was sent for a command that cannot be built: no call-sent event for it.
    const invalidUuid = randomUUID();
    await send(controller, {
      commandUuid: invalidUuid,
      type: 'unlock',
      target: { targetType: 'controller' },
    });
    await events.waitFor(OcppCallEventSubjects.completed, (data) => data.commandUuid === invalidUuid);
    expect(events.on(OcppCallEventSubjects.sent, (data) => data.commandUuid === invalidUuid)).toEqual([]);
  });

  it('announces a call answered within the delay by its call-completed event alone, which says when it went out', async () => {
    const patient = await startGatewayForTest(rig.nats.url, {
      OCPP_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS),
      OCPP_GATEWAY_INSTANCE_ID: 'gw-patient',
      OCPP_CALL_SENT_EVENT_DELAY_MS: '600000',
    });
    try {
      const controller = newController();
      const cp = await connectTo(patient, controller, 'ocpp2.0.1');
      cp.handle('ClearCache', () => Promise.resolve({ status: 'Accepted' }));
      const commandUuid = randomUUID();
      expect(await send(controller, { commandUuid, type: 'clear_cache' })).toMatchObject({
        outcome: 'answered',
      });
      const completed = await events.waitFor(
        OcppCallEventSubjects.completed,
        (data) => data.commandUuid === commandUuid,
      );
      expect(Number.isNaN(Date.parse(completed.data.sentAt as string))).toBe(false);
      expect(events.on(OcppCallEventSubjects.sent, (data) => data.commandUuid === commandUuid)).toEqual([]);
    } finally {
      await patient.app.close();
    }
  });

  it('answers "no responders" for a charge point no instance holds', async () => {
    const offline = newController();
    await expect(send(offline)).rejects.toThrow(/no responders|503/i);
  });

  it('never sends the same command twice: repeats get the first outcome, also from another instance', async () => {
    const controller = newController();
    const first = await connectTo(gatewayA, controller, 'ocpp1.6');
    let calls = 0;
    first.handle('ClearCache', async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { status: 'Accepted' };
    });
    const commandUuid = randomUUID();
    const request = { commandUuid, type: 'clear_cache' };
    const [one, two] = await Promise.all([send(controller, request), send(controller, request)]);
    expect(one).toMatchObject({ outcome: 'answered', resultStatus: 'Accepted' });
    expect(two).toEqual(one);
    await expect(send(controller, request)).resolves.toEqual(one);
    expect(calls).toBe(1);

    // The charge point moves to the other instance; the repeat is still not sent again.
    await first.close();
    const moved = await connectTo(gatewayB, controller, 'ocpp1.6');
    moved.handle('ClearCache', () => {
      calls += 1;
      return Promise.resolve({ status: 'Accepted' });
    });
    await expect(send(controller, request)).resolves.toEqual(one);
    expect(calls).toBe(1);
    const completed = await events.waitFor(
      OcppCallEventSubjects.completed,
      (data) => data.commandUuid === commandUuid,
    );
    expect(completed.data).toMatchObject({
      controllerUuid: controller.controllerUuid,
      reply: one,
      sentAt: expect.any(String),
    });
  });

  it('replies before the outcome is in the ledger, and a repeat meanwhile gets that outcome without a second call', async () => {
    const controller = newController();
    const cp = await connectTo(gatewayA, controller, 'ocpp1.6');
    let calls = 0;
    cp.handle('ClearCache', () => {
      calls += 1;
      return Promise.resolve({ status: 'Accepted' });
    });
    const ledger = gatewayA.app.get(CommandDeliveryLedger);
    let openLedger!: () => void;
    const ledgerClosed = new Promise<void>((resolve) => (openLedger = resolve));
    const settle = ledger.settle.bind(ledger);
    const held = jest.spyOn(ledger, 'settle').mockImplementation(async (...args) => {
      await ledgerClosed;
      return settle(...args);
    });
    try {
      const commandUuid = randomUUID();
      const request = { commandUuid, type: 'clear_cache' };
      const from = events.mark;
      const reply = await send(controller, request);
      expect(reply).toMatchObject({ outcome: 'answered', resultStatus: 'Accepted' });
      await expect(send(controller, request)).resolves.toEqual(reply);
      expect(await ledger.find(commandUuid)).not.toHaveProperty('reply');
      openLedger();
      await eventually(async () => (await ledger.find(commandUuid))?.reply !== undefined, Boolean, {
        timeoutMs: 5000,
        intervalMs: 20,
      });
      await expect(send(controller, request)).resolves.toEqual(reply);
      expect(calls).toBe(1);
      // The durable event follows the record.
      await events.waitFor(OcppCallEventSubjects.completed, (data) => data.commandUuid === commandUuid, {
        from,
      });
    } finally {
      openLedger();
      held.mockRestore();
    }
  });

  it('keeps one call in flight per charge point', async () => {
    const controller = newController();
    const cp = await connectTo(gatewayA, controller, 'ocpp1.6');
    let inFlight = 0;
    let maxInFlight = 0;
    cp.handle('Reset', async () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 50));
      inFlight -= 1;
      return { status: 'Accepted' };
    });
    const replies = await Promise.all(Array.from({ length: 5 }, () => send(controller)));
    expect(replies.map((reply) => reply.outcome)).toEqual(Array(5).fill('answered'));
    expect(maxInFlight).toBe(1);
  });

  it('classifies a CALLERROR, a timeout, an invalid reply and a dropped connection', async () => {
    const controller = newController();
    const cp = await connectTo(gatewayA, controller, 'ocpp1.6', { strict: false });
    cp.handle('Reset', () => Promise.reject(ocppCallError('NotSupported', 'no resets here')));
    cp.handle('ClearCache', () => new Promise(() => undefined));
    cp.handle('UnlockConnector', () => Promise.resolve({ status: 'Opened' }));
    await expect(send(controller)).resolves.toEqual({
      outcome: 'call_error',
      action: 'Reset',
      code: 'NotSupported',
      description: 'no resets here',
      error: 'ocpp_not_supported',
    });
    await expect(send(controller, { type: 'clear_cache' })).resolves.toEqual({
      outcome: 'timeout',
      action: 'ClearCache',
    });
    await expect(
      send(controller, { type: 'unlock', target: { targetType: 'connector', connectorId: 1 } }),
    ).resolves.toMatchObject({ outcome: 'invalid_response', action: 'UnlockConnector' });

    cp.handle('Reset', () => {
      void cp.close({ force: true });
      return new Promise(() => undefined);
    });
    await expect(send(controller)).resolves.toEqual({ outcome: 'connection_lost', action: 'Reset' });
  });

  it('refuses a command that does not fit the charge point, without sending anything', async () => {
    const controller = newController();
    const cp = await connectTo(gatewayA, controller, 'ocpp2.0.1');
    let calls = 0;
    cp.handle(() => {
      calls += 1;
      return Promise.resolve({});
    });
    await expect(
      send(controller, { type: 'unlock', target: { targetType: 'connector', connectorId: 1 } }),
    ).resolves.toMatchObject({
      outcome: 'invalid_command',
      error: 'invalid_target',
    });
    await expect(send(controller, { type: 'launch_rocket' })).resolves.toMatchObject({
      outcome: 'invalid_command',
    });
    expect(calls).toBe(0);
  });

  it('a second connection with the same identity replaces the first, on the same or another instance', async () => {
    const controller = newController();
    const first = await connectTo(gatewayA, controller, 'ocpp1.6');
    const firstClosed = new Promise((resolve) => first.once('close', resolve));
    const second = await connectTo(gatewayA, controller, 'ocpp1.6');
    await expect(firstClosed).resolves.toMatchObject({ code: 1000 });
    const secondClosed = new Promise((resolve) => second.once('close', resolve));
    const third = await connectTo(gatewayB, controller, 'ocpp2.0.1');
    await expect(secondClosed).resolves.toMatchObject({ code: 1000 });

    third.handle('Reset', () => Promise.resolve({ status: 'Accepted' }));
    await eventually(async () => (await send(controller)).outcome === 'answered', Boolean, {
      timeoutMs: 5000,
      intervalMs: 20,
    });
    await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
  });

  it('closes a socket that stops answering pings within the deadline', async () => {
    const controller = newController();
    const silent = await rawSocket(gatewayB.ocppPort, controller, 'ocpp1.6', { autoPong: false });
    // Deadline 1000 ms: pinged every 500 ms, dropped when the previous ping is still unanswered at the next one.
    // Without the deadline the socket would stay open and the test would time out; no wall-clock assertion here.
    const closed = await silent.closed;
    expect(closed.code).toBe(1006);
    await events.waitFor(
      ChargePointEventSubjects.disconnected,
      (data) => data.controllerUuid === controller.controllerUuid,
    );
  });

  it('closes the socket of a deleted controller and refuses it afterwards', async () => {
    const controller = newController();
    const cp = await connectTo(gatewayB, controller, 'ocpp1.6');
    const closed = new Promise<{ code: number }>((resolve) => cp.once('close', resolve));
    services.removeController(controller);
    const event: ControllerDeletedEvent = {
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid: controller.tenantUuid,
      data: {
        controllerUuid: controller.controllerUuid,
        ocppIdentity: controller.identity,
        locationUuid: randomUUID(),
        deletedAt: new Date().toISOString(),
      },
    };
    await jetstream(platform).publish(AssetsSubjects.controllerDeleted, JSON.stringify(event), {
      msgID: event.eventId,
    });
    await expect(closed).resolves.toMatchObject({ code: 1008 });
    await expect(
      upgradeStatus(gatewayB.ocppPort, {
        path: `/ocpp/acme/${controller.identity}`,
        basicAuth: `${controller.identity}:${PASSWORD}`,
      }),
    ).resolves.toMatchObject({ status: 401 });
  });
});

describe('ocpp-gateway: SIGTERM', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  let platform: NatsConnection;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_GATEWAY_INSTANCE_ID: 'gw-closing' });
    ({ gateway, services, events } = rig);
    platform = await connect({ servers: rig.nats.url });
  });

  afterAll(async () => {
    await platform?.close();
    await rig?.stop();
  });

  it('settles the call in flight, then closes the sockets with 1001 and announces the disconnect', async () => {
    const controller = services.addController({
      tenantSlug: 'acme',
      identity: 'CP-CLOSING',
      password: PASSWORD,
    });
    const cp = chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp1.6'] });
    await cp.connect();
    await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
    );
    let answerCall!: () => void;
    const called = new Promise<void>((resolve) => {
      cp.handle('Reset', () => {
        resolve();
        return new Promise((answered) => (answerCall = () => answered({ status: 'Accepted' })));
      });
    });
    const closed = new Promise<{ code: number }>((resolve) => cp.once('close', resolve));
    const request: OcppCallRequest = {
      commandUuid: randomUUID(),
      type: 'hard_reset',
      target: { targetType: 'controller' },
    };
    const reply = platform.request(
      OcppGatewaySubjects.call(controller.controllerUuid),
      JSON.stringify(request),
      { timeout: 10000 },
    );
    await called;

    const shutdown = gateway.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    answerCall();
    expect((await reply).json()).toMatchObject({ outcome: 'answered', resultStatus: 'Accepted' });
    await expect(closed).resolves.toMatchObject({ code: 1001 });
    await shutdown;
    const disconnected = await events.waitFor(
      ChargePointEventSubjects.disconnected,
      (data) => data.controllerUuid === controller.controllerUuid,
    );
    expect(disconnected.data).toMatchObject({ reason: 'gateway_shutdown', gatewayInstance: 'gw-closing' });
    // Nothing accepts new charge points any more.
    await expect(
      upgradeStatus(gateway.ocppPort, { path: '/ocpp/acme/CP-CLOSING', basicAuth: `CP-CLOSING:${PASSWORD}` }),
    ).rejects.toThrow();
  });
});

describe('ocpp-gateway: SIGTERM with a charge point that never answers', () => {
  let rig: GatewayTestRig;
  let platform: NatsConnection;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_SHUTDOWN_GRACE_MS: '300', OCPP_CALL_TIMEOUT_MS: '30000' });
    platform = await connect({ servers: rig.nats.url });
  });

  afterAll(async () => {
    await platform?.close();
    await rig?.stop();
  });

  it('waits no longer than the grace period, then drops the socket and answers connection_lost', async () => {
    const controller = rig.services.addController({
      tenantSlug: 'acme',
      identity: 'CP-STUCK',
      password: PASSWORD,
    });
    const cp = chargePoint({ port: rig.gateway.ocppPort, controller, protocols: ['ocpp2.0.1'] });
    const from = rig.events.mark;
    await cp.connect();
    await rig.events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    const called = new Promise<void>((resolve) =>
      cp.handle('Reset', () => {
        resolve();
        return new Promise(() => undefined);
      }),
    );
    const request: OcppCallRequest = {
      commandUuid: randomUUID(),
      type: 'soft_reset',
      target: { targetType: 'controller' },
    };
    const reply = platform.request(
      OcppGatewaySubjects.call(controller.controllerUuid),
      JSON.stringify(request),
      { timeout: 10000 },
    );
    await called;
    await rig.gateway.app.close();
    expect((await reply).json()).toEqual({ outcome: 'connection_lost', action: 'Reset' });
  });
});
