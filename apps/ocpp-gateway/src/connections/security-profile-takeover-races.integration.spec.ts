import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  CHARGE_POINT_PRESENCE_BUCKET,
  ChargePointEventSubjects,
  type ChargePointPresence,
  type OcppCallReply,
  type OcppCallRequest,
  OcppGatewaySubjects,
} from '@cpc/contracts';
import type { EventRecorder } from '@cpc/testing';
import type { RunningOcppGateway } from '../start-ocpp-gateway.js';
import {
  type ChargePoint,
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayForTest,
  startGatewayTestRig,
  closeOf,
} from '../testing/ocpp-gateway-test-bed.js';
import type { ChargePointConnection } from './charge-point-connection.js';
import { ChargePointPresenceRegistry } from './charge-point-presence.registry.js';
import { SecurityProfileTakeoverGuard } from './security-profile-takeover.guard.js';

const PASSWORD = 'correct-horse-battery-1';
const OPEN = 1;

/**
 * A profile-0 handshake never replaces a socket that authenticated with a higher profile, whatever the order. The
 * moment forced here: the profile-0 handshake on instance X has passed its check (nothing higher was connected) and is
 * held there until a profile-1 socket of the same controller has opened and announced itself, on instance Y or on X.
 * Then X's socket opens, and its presence entry would be written after (a higher KV revision than) the profile-1 one.
 * The profile-1 socket must stay and serve calls; the profile-0 one is closed (1008).
 */
describe('ocpp-gateway: a profile-0 handshake racing a higher-profile socket', () => {
  let rig: GatewayTestRig;
  let gatewayX: RunningOcppGateway;
  let gatewayY: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  let platform: NatsConnection;
  let presence: KV;
  const clients: ChargePoint[] = [];
  /** Lets held steps go on; called after each test, so that a failed one leaves nothing held. */
  const releases: (() => void)[] = [];
  let counter = 0;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_GATEWAY_INSTANCE_ID: 'gw-x' });
    ({ gateway: gatewayX, services, events } = rig);
    gatewayY = await startGatewayForTest(rig.nats.url, { OCPP_GATEWAY_INSTANCE_ID: 'gw-y' });
    services.addTenant('open');
    services.tenantsAllowingProfile0.add('open');
    platform = await connect({ servers: rig.nats.url });
    presence = await new Kvm(platform).open(CHARGE_POINT_PRESENCE_BUCKET);
  });

  afterEach(async () => {
    releases.splice(0).forEach((release) => release());
    jest.restoreAllMocks();
    await Promise.all(clients.splice(0).map((client) => client.close({ force: true })));
  });

  afterAll(async () => {
    await platform?.close();
    await gatewayY?.app.close();
    await rig?.stop();
  });

  function client(gateway: RunningOcppGateway, controller: FakeController, password?: null): ChargePoint {
    const created = chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp1.6'], password });
    clients.push(created);
    return created;
  }

  /** Holds every handshake check of `gateway`'s guard after it answered, until the returned release is called. */
  function holdAfterCheck(gateway: RunningOcppGateway): { checked: Promise<void>; release: () => void } {
    const guard = gateway.app.get(SecurityProfileTakeoverGuard);
    const check = guard.check.bind(guard);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    releases.push(release);
    let markChecked!: () => void;
    const checked = new Promise<void>((resolve) => (markChecked = resolve));
    jest.spyOn(guard, 'check').mockImplementation(async (...args) => {
      const answer = await check(...args);
      markChecked();
      await released;
      return answer;
    });
    return { checked, release };
  }

  /**
   * Holds `gateway`'s presence write of the controller's profile-0 connection before it is sent (its compare-and-set),
   * until the returned release is called.
   */
  function holdProfile0Write(
    gateway: RunningOcppGateway,
    controller: FakeController,
  ): { writing: Promise<void>; release: () => void } {
    const registry = gateway.app.get(ChargePointPresenceRegistry);
    const announce = registry.announce.bind(registry);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let markWriting!: () => void;
    const writing = new Promise<void>((resolve) => (markWriting = resolve));
    releases.push(release);
    jest.spyOn(registry, 'announce').mockImplementation(async (connection: ChargePointConnection) => {
      if (
        connection.controllerUuid === controller.controllerUuid &&
        connection.chargePoint.securityProfile === 0
      ) {
        markWriting();
        await released;
      }
      return announce(connection);
    });
    return { writing, release };
  }

  async function send(controller: FakeController): Promise<OcppCallReply> {
    const request: OcppCallRequest = {
      commandUuid: randomUUID(),
      type: 'soft_reset',
      parameters: {},
      target: { targetType: 'controller' },
    };
    const reply = await platform.request(
      OcppGatewaySubjects.call(controller.controllerUuid),
      JSON.stringify(request),
      { timeout: 8000 },
    );
    return reply.json<OcppCallReply>();
  }

  it.each([
    ['on another instance', 'gw-y', () => gatewayY],
    ['on the same instance', 'gw-x', () => gatewayX],
  ])(
    'a profile-0 socket opening after a profile-1 one (%s) is closed (1008); the profile-1 socket stays',
    async (_, legitInstance, legitGateway) => {
      counter += 1;
      const controller = services.addController({
        tenantSlug: 'open',
        identity: `CP-P0-RACE-${counter}`,
        securityProfile: 0,
      });
      const { checked, release } = holdAfterCheck(gatewayX);
      const intruder = client(gatewayX, controller, null);
      const intruderOpened = intruder.connect();
      // Its check found nothing of a higher profile connected, and it is held there.
      await checked;

      // The controller's profile is 1 (again): the charge point with the password connects.
      controller.securityProfile = 1;
      controller.password = PASSWORD;
      let from = events.mark;
      const legit = client(legitGateway(), controller);
      const legitCalls: unknown[] = [];
      legit.handle('Reset', ({ params }) => {
        legitCalls.push(params);
        return Promise.resolve({ status: 'Accepted' });
      });
      const legitClosed = closeOf(legit);
      await legit.connect();
      const legitConnected = await events.waitFor(
        ChargePointEventSubjects.connected,
        (data) => data.controllerUuid === controller.controllerUuid,
        { from },
      );

      from = events.mark;
      const intruderClosed = closeOf(intruder);
      release();
      // The handshake passed its check: the socket opens, and is closed for the policy.
      await intruderOpened;
      const stillOpen = sleep(5000, 'still open', { ref: false });
      expect(
        await Promise.race([intruderClosed, legitClosed.then((code) => `legit closed ${code}`), stillOpen]),
      ).toBe(1008);

      await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
      expect(legitCalls).toEqual([{ type: 'Soft' }]);
      await expect(legit.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
      // Else it was replaced (1000) by the profile-0 socket, whose entry got the higher revision.
      expect((legit as unknown as { state: number }).state).toBe(OPEN);
      const entry = (await presence.get(controller.controllerUuid))?.json<ChargePointPresence>();
      expect(entry).toMatchObject({
        connectionId: legitConnected.data.connectionId,
        gatewayInstance: legitInstance,
        securityProfile: 1,
      });
      // No connected event of the profile-0 socket made it look like the charge point's way in.
      expect(
        events.events
          .slice(from)
          .filter(
            ({ subject, event }) =>
              subject === ChargePointEventSubjects.connected &&
              event.data.controllerUuid === controller.controllerUuid &&
              event.data.connectionId !== legitConnected.data.connectionId,
          ),
      ).toEqual([]);
    },
  );

  // The profile-0 socket's write fails (the profile-1 entry is there), but until then no call may reach it: it serves
  // the controller's call subject only once its entry is written. Both sockets would share the call subject's queue
  // group, each call going to one of them at random; of the calls sent while its write is held, none reaches it.
  it('a profile-0 socket between its check and its presence write gets no call of the controller', async () => {
    counter += 1;
    const controller = services.addController({
      tenantSlug: 'open',
      identity: `CP-P0-CALLS-${counter}`,
      securityProfile: 0,
    });
    const check = holdAfterCheck(gatewayX);
    const write = holdProfile0Write(gatewayX, controller);
    const intruder = client(gatewayX, controller, null);
    const intruderCalls: unknown[] = [];
    intruder.handle('Reset', ({ params }) => {
      intruderCalls.push(params);
      return Promise.resolve({ status: 'Accepted' });
    });
    const intruderOpened = intruder.connect();
    await check.checked;

    controller.securityProfile = 1;
    controller.password = PASSWORD;
    const from = events.mark;
    const legit = client(gatewayY, controller);
    const legitCalls: unknown[] = [];
    legit.handle('Reset', ({ params }) => {
      legitCalls.push(params);
      return Promise.resolve({ status: 'Accepted' });
    });
    await legit.connect();
    const legitConnected = await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );

    const intruderClosed = closeOf(intruder);
    check.release();
    await intruderOpened;
    // The socket is open, its write not sent yet.
    await write.writing;
    const replies: OcppCallReply[] = [];
    for (let i = 0; i < 20; i++) replies.push(await send(controller));
    expect(replies.map(({ outcome }) => outcome)).toEqual(Array(20).fill('answered'));
    expect({ intruderCalls, legitCalls: legitCalls.length }).toEqual({ intruderCalls: [], legitCalls: 20 });

    write.release();
    const stillOpen = sleep(5000, 'still open', { ref: false });
    expect(await Promise.race([intruderClosed, stillOpen])).toBe(1008);
    await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
    expect(intruderCalls).toEqual([]);
    expect((legit as unknown as { state: number }).state).toBe(OPEN);
    expect((await presence.get(controller.controllerUuid))?.json<ChargePointPresence>()).toMatchObject({
      connectionId: legitConnected.data.connectionId,
      gatewayInstance: 'gw-y',
    });
  });
});
