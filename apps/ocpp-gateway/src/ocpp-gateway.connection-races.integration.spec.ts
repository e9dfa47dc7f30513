import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import { Kvm, type KV } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  CHARGE_POINT_PRESENCE_BUCKET,
  ChargePointEventSubjects,
  type ConnectionOpenedNotice,
  type ControllerDeletedEvent,
  type OcppCallReply,
  type OcppCallRequest,
  OcppGatewaySubjects,
} from '@cpc/contracts';
import { type EventRecorder, upgradeStatus } from '@cpc/testing';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  type ChargePoint,
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayForTest,
  startGatewayTestRig,
  closeOf,
} from './testing/ocpp-gateway-test-bed.js';

const PASSWORD = 'correct-horse-battery-1';
const OPEN = 1;
const ROUNDS = 5;

/** One hand-written upgrade request (headers no WebSocket library would send); the status and chosen protocol. */
function rawUpgrade(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; protocol: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = received.slice(0, end).split('\r\n');
      const protocol = lines
        .find((line) => line.toLowerCase().startsWith('sec-websocket-protocol:'))
        ?.slice('sec-websocket-protocol:'.length)
        .trim();
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), protocol });
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: 0, protocol: undefined }));
    const lines = [
      `GET ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

/**
 * Races around one charge point identity: simultaneous connections (one instance, two instances), reconnects racing
 * the close of the old socket, a controller deleted while its handshake is in flight. Real gateways on a real NATS;
 * only assets-service and auth-service are stand-ins (the test bed's), so a handshake can be held in flight.
 */
describe('ocpp-gateway: races around one charge point identity', () => {
  let rig: GatewayTestRig;
  let gatewayA: RunningOcppGateway;
  let gatewayB: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  let platform: NatsConnection;
  let presence: KV;
  const clients: ChargePoint[] = [];
  let counter = 0;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_GATEWAY_INSTANCE_ID: 'gw-a' });
    ({ gateway: gatewayA, services, events } = rig);
    gatewayB = await startGatewayForTest(rig.nats.url, { OCPP_GATEWAY_INSTANCE_ID: 'gw-b' });
    platform = await connect({ servers: rig.nats.url });
    presence = await new Kvm(platform).open(CHARGE_POINT_PRESENCE_BUCKET);
  });

  afterEach(async () => {
    services.authenticationsHeldUntil = undefined;
    services.onAuthentication = () => undefined;
    await Promise.all(clients.splice(0).map((client) => client.close({ force: true })));
  });

  afterAll(async () => {
    await platform?.close();
    await gatewayB?.app.close();
    await rig?.stop();
  });

  function newController(): FakeController {
    counter += 1;
    return services.addController({ tenantSlug: 'acme', identity: `CP-RACE-${counter}`, password: PASSWORD });
  }

  function client(gateway: RunningOcppGateway, controller: FakeController): ChargePoint {
    const created = chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp1.6'] });
    clients.push(created);
    return created;
  }

  /**
   * Holds every charge point authentication until `count` have arrived at the stand-in assets-service, then answers
   * them all at once: the sockets open within moments of each other.
   */
  function answerTogetherOnce(count: number): Promise<void> {
    let release!: () => void;
    services.authenticationsHeldUntil = new Promise<void>((resolve) => (release = resolve));
    return new Promise<void>((allAsked) => {
      let asked = 0;
      services.onAuthentication = () => {
        asked += 1;
        if (asked < count) return;
        services.onAuthentication = () => undefined;
        services.authenticationsHeldUntil = undefined;
        allAsked();
        release();
      };
    });
  }

  /** Takeover notices of a controller as NATS routes them (to this test; the gateways get theirs in the same order). */
  function noticesOf(controller: FakeController, count: number): Promise<ConnectionOpenedNotice[]> {
    const subscription = platform.subscribe(OcppGatewaySubjects.connectionOpened(controller.controllerUuid), {
      max: count,
    });
    return (async () => {
      const notices: ConnectionOpenedNotice[] = [];
      for await (const message of subscription) notices.push(message.json<ConnectionOpenedNotice>());
      return notices;
    })();
  }

  async function send(controller: FakeController): Promise<OcppCallReply | 'no_responders'> {
    const request: OcppCallRequest = {
      commandUuid: randomUUID(),
      type: 'soft_reset',
      parameters: {},
      target: { targetType: 'controller' },
    };
    try {
      const reply = await platform.request(
        OcppGatewaySubjects.call(controller.controllerUuid),
        JSON.stringify(request),
        { timeout: 8000 },
      );
      return reply.json<OcppCallReply>();
    } catch (error) {
      if (/no responders/i.test(String(error))) return 'no_responders';
      throw error;
    }
  }

  function answerResets(...chargePoints: ChargePoint[]): void {
    for (const each of chargePoints) each.handle('Reset', () => Promise.resolve({ status: 'Accepted' }));
  }

  /**
   * Two sockets of one identity whose handshakes end at the same moment, on one instance or on two. Exactly one must
   * survive, and the platform's commands must reach it.
   */
  async function connectTwiceAtOnce(
    controller: FakeController,
    first: RunningOcppGateway,
    second: RunningOcppGateway,
  ): Promise<{ survivors: ChargePoint[]; closes: number[]; reply: OcppCallReply | 'no_responders' }> {
    const both = answerTogetherOnce(2);
    const notices = noticesOf(controller, 2);
    const from = events.mark;
    const one = client(first, controller);
    const other = client(second, controller);
    answerResets(one, other);
    const closes: number[] = [];
    const firstClose = Promise.race([closeOf(one), closeOf(other)]).then((code) => closes.push(code));
    await Promise.all([one.connect(), other.connect(), both]);
    // Both connections announced themselves (event and notice); then one of them was closed as replaced.
    await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    await notices;
    await firstClose;
    // The notices reached NATS before this request, so each instance has handled them before it handles the request.
    const reply = await send(controller);
    const survivors = [one, other].filter((each) => (each as unknown as { state: number }).state === OPEN);
    return { survivors, closes, reply };
  }

  // Both connections write their presence entry and announce its KV revision; on one instance the older one's write
  // goes out first (one NATS connection, flushes return in order), so the newer socket ignores the older one's notice
  // and keeps its place, while the older one was already closed as replaced when the newer one opened.
  it('two handshakes of one identity ending together on one instance: exactly one socket survives', async () => {
    // The moment is a race of NATS round trips: a few rounds make sure it is met at least once.
    for (let round = 0; round < ROUNDS; round++) {
      const { survivors, closes, reply } = await connectTwiceAtOnce(newController(), gatewayA, gatewayA);
      // Else no_responders or not_sent: both call subscriptions would be gone or draining.
      expect({ round, reply }).toMatchObject({ round, reply: { outcome: 'answered' } });
      expect(closes).toEqual([1000]);
      expect(survivors).toHaveLength(1);
    }
  });

  // Across instances the presence entries' KV revisions (one sequence for the bucket) order the two connections, not
  // the arrival of their notices: each yields only to a higher revision than its own, so the older one steps aside,
  // also when it heard the newer one's notice before its own write returned, and the newer one stays.
  it('two handshakes of one identity ending together on two instances: exactly one socket survives', async () => {
    // The moment is a race of NATS round trips: a few rounds make sure it is met at least once.
    for (let round = 0; round < ROUNDS; round++) {
      const { survivors, closes, reply } = await connectTwiceAtOnce(newController(), gatewayA, gatewayB);
      // Else no_responders or not_sent: both call subscriptions would be gone or draining.
      expect({ round, reply }).toMatchObject({ round, reply: { outcome: 'answered' } });
      expect(closes).toEqual([1000]);
      expect(survivors).toHaveLength(1);
    }
  });

  it('a reconnect to another instance replaces the old socket; presence and commands follow the new one', async () => {
    const controller = newController();
    const old = client(gatewayA, controller);
    let from = events.mark;
    await old.connect();
    const oldConnected = await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    const oldClosed = closeOf(old);
    from = events.mark;
    const reconnect = client(gatewayB, controller);
    answerResets(reconnect);
    await reconnect.connect();
    const newConnected = await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    expect(await oldClosed).toBe(1000);
    const disconnected = await events.waitFor(
      ChargePointEventSubjects.disconnected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    expect(disconnected.data.connectionId).toBe(oldConnected.data.connectionId);
    // The old connection's withdrawal left the new one's entry alone.
    expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({
      connectionId: newConnected.data.connectionId,
      gatewayInstance: 'gw-b',
    });
    await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
  });

  it('rapid connect/close cycles end with the last socket present, after every earlier disconnect', async () => {
    const controller = newController();
    const from = events.mark;
    for (let cycle = 0; cycle < 5; cycle++) {
      const each = client(cycle % 2 === 0 ? gatewayA : gatewayB, controller);
      await each.connect();
      await each.close({ code: 1000 });
    }
    const last = client(gatewayB, controller);
    answerResets(last);
    await last.connect();
    // Six connects, five disconnects: wait for all of them, then the last word must be the last connection's.
    let connects: string[] = [];
    for (let seen = 0; seen < 6; seen++) {
      const event = await events.waitFor(
        ChargePointEventSubjects.connected,
        (data) =>
          data.controllerUuid === controller.controllerUuid && !connects.includes(String(data.connectionId)),
        { from },
      );
      connects = [...connects, String(event.data.connectionId)];
    }
    const disconnects: string[] = [];
    for (let seen = 0; seen < 5; seen++) {
      const event = await events.waitFor(
        ChargePointEventSubjects.disconnected,
        (data) =>
          data.controllerUuid === controller.controllerUuid &&
          !disconnects.includes(String(data.connectionId)),
        { from },
      );
      disconnects.push(String(event.data.connectionId));
    }
    const entry = (await presence.get(controller.controllerUuid))?.json<{ connectionId: string }>();
    expect(entry).toBeDefined();
    expect(disconnects).not.toContain(entry?.connectionId);
    expect(connects).toContain(entry?.connectionId);
    await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
    expect((last as unknown as { state: number }).state).toBe(OPEN);
  });

  it('a call in flight during a takeover by another instance: answered once, never sent twice', async () => {
    const controller = newController();
    const old = client(gatewayA, controller);
    let from = events.mark;
    await old.connect();
    await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    let callReached!: () => void;
    const reached = new Promise<void>((resolve) => (callReached = resolve));
    let oldCalls = 0;
    // The old socket's charge point receives the call and never answers it (it is about to go away).
    old.handle('Reset', () => {
      oldCalls += 1;
      callReached();
      return new Promise(() => undefined);
    });
    const request: OcppCallRequest = {
      commandUuid: randomUUID(),
      type: 'soft_reset',
      parameters: {},
      target: { targetType: 'controller' },
    };
    const ask = () =>
      platform
        .request(OcppGatewaySubjects.call(controller.controllerUuid), JSON.stringify(request), {
          timeout: 8000,
        })
        .then((reply) => reply.json<OcppCallReply>());
    const first = ask();
    await reached;

    const newCalls: unknown[] = [];
    from = events.mark;
    const reconnect = client(gatewayB, controller);
    reconnect.handle('Reset', ({ params }) => {
      newCalls.push(params);
      return Promise.resolve({ status: 'Accepted' });
    });
    await reconnect.connect();
    await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    // The old socket closed under the call: the requester learns it, and a repeat (command-service asks again when it
    // hears the takeover notice) is answered from the ledger, not sent to the new socket.
    await expect(first).resolves.toMatchObject({ outcome: 'connection_lost' });
    await expect(ask()).resolves.toMatchObject({ outcome: 'connection_lost' });
    expect(oldCalls).toBe(1);
    expect(newCalls).toEqual([]);
    // The next command goes to the new socket.
    await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
    expect(newCalls).toEqual([{ type: 'Soft' }]);
  });

  it('commands for one charge point delivered at once go out one at a time, in the order they arrived', async () => {
    const controller = newController();
    const cp = client(gatewayB, controller);
    const from = events.mark;
    await cp.connect();
    await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    const received: string[] = [];
    let inFlight = 0;
    let mostAtOnce = 0;
    cp.handle('ChangeAvailability', async ({ params }) => {
      inFlight += 1;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      received.push(String((params as { connectorId: number }).connectorId));
      // Answer on a later turn of the event loop, so that an overlapping call would be seen.
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return { status: 'Accepted' };
    });
    const requests = [1, 2, 3, 4, 5].map((connectorId) => {
      const request: OcppCallRequest = {
        commandUuid: randomUUID(),
        type: 'change_availability',
        parameters: { availability: 'inoperative' },
        target: { targetType: 'connector', connectorId },
      };
      return platform
        .request(OcppGatewaySubjects.call(controller.controllerUuid), JSON.stringify(request), {
          timeout: 8000,
        })
        .then((reply) => reply.json<OcppCallReply>());
    });
    const replies = await Promise.all(requests);
    expect(replies.map((reply) => reply.outcome)).toEqual(Array(5).fill('answered'));
    expect(received).toEqual(['1', '2', '3', '4', '5']);
    expect(mostAtOnce).toBe(1);
  });

  it('case and percent-encoding variants of an identity are one charge point: the newest wins', async () => {
    const controller = newController();
    const lower = chargePoint({
      port: gatewayA.ocppPort,
      controller: { ...controller, identity: controller.identity.toLowerCase() },
      password: PASSWORD,
      protocols: ['ocpp1.6'],
    });
    clients.push(lower);
    const from = events.mark;
    await lower.connect();
    const first = await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    // Events carry the identity as registered, whatever spelling the charge point used.
    expect(first.data.ocppIdentity).toBe(controller.identity);
    const lowerClosed = closeOf(lower);
    const encoded = [...controller.identity]
      .map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
      .join('');
    await expect(
      upgradeStatus(gatewayB.ocppPort, {
        path: `/ocpp/acme/${encoded}`,
        basicAuth: `${controller.identity}:${PASSWORD}`,
      }),
    ).resolves.toMatchObject({ status: 101 });
    expect(await lowerClosed).toBe(1000);
  });

  it('refuses hostile handshakes before a socket opens, and keeps accepting the real charge point', async () => {
    const controller = newController();
    const auth = `${controller.identity}:${PASSWORD}`;
    const paths = [
      `/ocpp/acme/${'A'.repeat(49)}`,
      `/ocpp/acme/${'A'.repeat(8000)}`,
      `/ocpp/acme/${controller.identity}%2Fx`,
      `/ocpp/acme/${controller.identity}%00`,
      `/ocpp/acme/${controller.identity}%E0%A4%A`,
      `/ocpp/acme/%`,
      `/ocpp/acme/${controller.identity}%20`,
      `/ocpp/acme/${controller.identity}/`,
    ];
    for (const path of paths) {
      const { status } = await upgradeStatus(gatewayA.ocppPort, { path, basicAuth: auth });
      expect({ path: path.slice(0, 60), refused: status >= 400 && status < 500 }).toEqual({
        path: path.slice(0, 60),
        refused: true,
      });
    }
    // The Basic-auth user name must be the identity of the URL exactly; another spelling sends no password.
    await expect(
      upgradeStatus(gatewayA.ocppPort, {
        path: `/ocpp/acme/${controller.identity}`,
        basicAuth: `${controller.identity.toLowerCase()}:${PASSWORD}`,
      }),
    ).resolves.toMatchObject({ status: 401 });
    const cp = client(gatewayA, controller);
    await cp.connect();
    await expect(cp.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
  });

  async function offerProtocols(offer: string): Promise<{ status: number; protocol: string | undefined }> {
    const controller = newController();
    return rawUpgrade(gatewayA.ocppPort, `/ocpp/acme/${controller.identity}`, {
      authorization: `Basic ${Buffer.from(`${controller.identity}:${PASSWORD}`).toString('base64')}`,
      'sec-websocket-protocol': offer,
    });
  }

  it.each([
    ['ocpp3.0, ocpp2.0.1', 101, 'ocpp2.0.1'],
    ['ocpp1.6,ocpp2.0.1', 101, 'ocpp1.6'],
    ['OCPP1.6', 400, undefined],
    ['ocpp1.6j', 400, undefined],
  ])('answers the subprotocol offer "%s" with %d (protocol %s)', async (offer, status, protocol) => {
    await expect(offerProtocols(offer)).resolves.toEqual({ status, protocol });
  });

  // A malformed Sec-WebSocket-Protocol header (a repeated protocol, an empty element, an empty header) is the
  // client's fault: the gateway refuses it with 400 before ocpp-rpc, whose WebSocket parser would throw (a 500).
  it.each([['ocpp1.6, ocpp1.6'], ['ocpp1.6,,ocpp2.0.1'], ['']])(
    'refuses the malformed subprotocol offer "%s" with 400, as a client error',
    async (offer) => {
      await expect(offerProtocols(offer)).resolves.toEqual({ status: 400, protocol: undefined });
    },
  );

  it('a controller deleted while its handshake is in flight: its socket is closed on opening', async () => {
    const controller = newController();
    let releaseAnswer!: () => void;
    services.authenticationsHeldUntil = new Promise<void>((resolve) => (releaseAnswer = resolve));
    const asked = new Promise<void>((resolve) => {
      services.onAuthentication = (request) => {
        if (request.ocppIdentity === controller.identity) resolve();
      };
    });
    const cp = client(gatewayB, controller);
    const closed = closeOf(cp);
    const connecting = cp.connect();
    await asked;
    // The answer (the old row, as assets-service read it) is held; the barrier's handshake below is not.
    services.authenticationsHeldUntil = undefined;
    services.removeController(controller);
    const event: ControllerDeletedEvent = {
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid: controller.tenantUuid,
      data: {
        controllerUuid: controller.controllerUuid,
        ocppIdentity: controller.identity,
        locationUuid: controller.locationUuid,
        deletedAt: new Date().toISOString(),
      },
    };
    await jetstream(platform).publish(AssetsSubjects.controllerDeleted, JSON.stringify(event), {
      msgID: event.eventId,
    });
    // A barrier: a later deletion closed another socket, so this one was handled too (events are handled in order).
    const barrier = newController();
    const barrierClient = client(gatewayB, barrier);
    await barrierClient.connect();
    const barrierClosed = closeOf(barrierClient);
    const barrierEvent: ControllerDeletedEvent = {
      ...event,
      eventId: randomUUID(),
      data: { ...event.data, controllerUuid: barrier.controllerUuid, ocppIdentity: barrier.identity },
    };
    await jetstream(platform).publish(AssetsSubjects.controllerDeleted, JSON.stringify(barrierEvent), {
      msgID: barrierEvent.eventId,
    });
    await barrierClosed;
    releaseAnswer();
    await connecting.catch(() => undefined);
    expect(await closed).toBe(1008);
  });
});
