import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import {
  CHARGE_POINT_PRESENCE_BUCKET,
  ChargePointEventSubjects,
  EVENT_STREAM,
  type EventEnvelope,
  GATEWAY_INSTANCES_BUCKET,
  type OcppCallReply,
  type OcppCallRequest,
  OcppGatewaySubjects,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { EventRecorder, eventually, type RecordedEvent } from '@cpc/testing';
import { ChargePointEventPublisher } from '../events/charge-point-event.publisher.js';
import type { RunningOcppGateway } from '../start-ocpp-gateway.js';
import {
  type ChargePoint,
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayForTest,
  startGatewayTestRig,
} from '../testing/ocpp-gateway-test-bed.js';
import type { ChargePointConnection } from './charge-point-connection.js';
import { ChargePointConnectionLifecycle } from './charge-point-connection.lifecycle.js';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';
import { ChargePointPresenceRegistry, gatewayInstanceKey } from './charge-point-presence.registry.js';
import { ConnectionTakeoverChannel } from './connection-takeover.channel.js';

const PASSWORD = 'correct-horse-battery-1';
const OPEN = 1;
// A round (a third of the TTL) every 1.5 s; the audit stays out of the way (once per 10 minutes).
const PRESENCE_ENV = { OCPP_PRESENCE_TTL_MS: '4500', OCPP_PRESENCE_AUDIT_MS: '600000' };
const { connected: CONNECTED, disconnected: DISCONNECTED } = ChargePointEventSubjects;

type Envelope = EventEnvelope<Record<string, unknown>>;

type Recorded = RecordedEvent;

/** The connected and disconnected events naming the connection, as stored. */
function ofConnection(recorder: EventRecorder, connectionId: string): Recorded[] {
  return recorder.events.filter(
    ({ subject, event }) =>
      (subject === CONNECTED || subject === DISCONNECTED) && event.data.connectionId === connectionId,
  );
}

/** An event as the test reports it: which, why, and where it stands by event time and by stream sequence. */
function word({ subject, seq, event }: Recorded) {
  return { subject, reason: event.data.reason, occurredAt: event.occurredAt, seq };
}

/**
 * The connection's last word as assets-service sees it: its events ordered by event time, ties by stream sequence
 * (docs/assets.md, live state). Also by stream sequence alone, as a consumer that goes by the stream would.
 */
function lastWords(events: Recorded[]) {
  const byTime = [...events].sort(
    (a, b) => Date.parse(a.event.occurredAt) - Date.parse(b.event.occurredAt) || a.seq - b.seq,
  );
  return { byTime: byTime.at(-1)?.subject, byStream: events.at(-1)?.subject };
}

/**
 * Instance A stands still (a long GC pause, say) and instance B, finding it dead, sweeps its entries and announces
 * their disconnects (gateway_instance_lost), while A wakes up, rejoins and writes its entries again. However the two
 * interleave, a connection whose socket stayed open must end with `connected` as its last word, by event time (then
 * stream sequence) and by stream order, and its entry must be there.
 *
 * The moments are forced, never slept for: A's upkeep is held at its next confirmation (it stands still) while its
 * instance state is made old (as if the pause had lasted longer than the TTL); B's publish of a sweep's disconnect is
 * held (before it is stamped, or in B's event bus) until A announced its connection again; or the other way round.
 */
describe('ocpp-gateway: the sweep of an instance that stood still, racing its rejoin', () => {
  let rig: GatewayTestRig;
  let gatewayA: RunningOcppGateway;
  let gatewayB: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let recorder: EventRecorder;
  let platform: NatsConnection;
  let streams: JetStreamManager;
  let presence: KV;
  let instances: KV;
  const clients: ChargePoint[] = [];
  /** Lets a held upkeep go on; called after each test, so that a failed one leaves no instance standing still. */
  const wakers: (() => void)[] = [];
  let counter = 0;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ ...PRESENCE_ENV, OCPP_GATEWAY_INSTANCE_ID: 'gw-a' });
    ({ gateway: gatewayA, services } = rig);
    gatewayB = await startGatewayForTest(rig.nats.url, { ...PRESENCE_ENV, OCPP_GATEWAY_INSTANCE_ID: 'gw-b' });
    services.addTenant('open');
    services.tenantsAllowingProfile0.add('open');
    recorder = await EventRecorder.start(rig.nats.url);
    platform = await connect({ servers: rig.nats.url });
    streams = await jetstreamManager(platform);
    presence = await new Kvm(platform).open(CHARGE_POINT_PRESENCE_BUCKET);
    instances = await new Kvm(platform).open(GATEWAY_INSTANCES_BUCKET);
  });

  afterEach(async () => {
    wakers.splice(0).forEach((wake) => wake());
    jest.restoreAllMocks();
    await Promise.all(clients.splice(0).map((client) => client.close({ force: true })));
    for (const gateway of [gatewayA, gatewayB]) {
      await gateway.app.get(ChargePointConnectionLifecycle).disconnectsAnnounced();
    }
    // The next test starts with gw-a alive again (its upkeep rejoined, if this one left it found dead).
    await eventually(
      async () => {
        // A sweep that finished while gw-a was held removed its key (a delete marker, no JSON).
        const entry = await instances.get(gatewayInstanceKey('gw-a'));
        return entry?.operation === 'PUT' ? entry.json<{ lost?: boolean; refreshedAt: string }>() : undefined;
      },
      (state) => state !== undefined && !state.lost && Date.parse(state.refreshedAt) > Date.now() - 3000,
    );
  });

  afterAll(async () => {
    await recorder?.stop();
    await platform?.close();
    await gatewayB?.app.close();
    await rig?.stop();
  });

  function newController(tenantSlug = 'acme'): FakeController {
    counter += 1;
    return services.addController({
      tenantSlug,
      identity: `CP-SWEPT-${counter}`,
      password: PASSWORD,
    });
  }

  async function connected(gateway: RunningOcppGateway, controller: FakeController) {
    const from = recorder.mark;
    const cp = chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp1.6'] });
    clients.push(cp);
    cp.handle('Reset', () => Promise.resolve({ status: 'Accepted' }));
    await cp.connect();
    const event = await recorder.waitFor(
      CONNECTED,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    return { cp, controller, connectionId: String(event.data.connectionId) };
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

  /**
   * Holds gw-a's upkeep at its next confirmation and makes its last confirmation old, as if it had stood still for
   * longer than the TTL: gw-b finds it dead at its next round. Resolves once gw-a is held; returns what wakes it up.
   */
  async function standStill(): Promise<() => void> {
    const registry = gatewayA.app.get(ChargePointPresenceRegistry);
    const confirm = registry.confirmAlive.bind(registry);
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    wakers.push(wake);
    const held = new Promise<void>((resolve) => {
      jest.spyOn(registry, 'confirmAlive').mockImplementation(async () => {
        resolve();
        await woken;
        return confirm();
      });
    });
    await held;
    const state = await instances.get(gatewayInstanceKey('gw-a'));
    await instances.put(
      gatewayInstanceKey('gw-a'),
      JSON.stringify({ ...state?.json<object>(), refreshedAt: new Date(Date.now() - 60_000).toISOString() }),
    );
    return wake;
  }

  /**
   * Holds back the disconnects gw-b's sweep publishes (gateway_instance_lost): each goes on once `until` (given its
   * connection id and how many came before it) resolves. `stalled`: gw-b stands still before its publish, which then
   * stamps the event with the time it goes on; `in flight`: the event is stamped and its publish is slow to arrive.
   * With `skewMs`, gw-b's events carry the times of a clock that far ahead. `held` resolves with the connection id of
   * the first one held back; `settled` holds each publish, settled once it returned.
   */
  function holdSweptDisconnects(
    where: 'stalled' | 'in flight',
    until: (connectionId: string, earlier: number) => Promise<void> | undefined,
    skewMs = 0,
  ) {
    const settled: Promise<void>[] = [];
    let heldOne!: (connectionId: string) => void;
    const held = new Promise<string>((resolve) => (heldOne = resolve));
    const gateOf = (connectionId: string) => {
      const gate = until(connectionId, settled.length);
      if (gate) heldOne(connectionId);
      return gate;
    };
    const swept = (subject: string, data: Record<string, unknown>) =>
      subject === DISCONNECTED && data.reason === 'gateway_instance_lost';

    const bus = gatewayB.app.get(JetStreamEventBus);
    const busPublish = bus.publish.bind(bus);
    jest.spyOn(bus, 'publish').mockImplementation(async (subject, event, traceparent) => {
      const data = (event as Envelope).data;
      if (!swept(subject, data)) return busPublish(subject, event, traceparent);
      const later = (at: unknown) => new Date(Date.parse(String(at)) + skewMs).toISOString();
      const shifted: Envelope = {
        ...(event as Envelope),
        occurredAt: later(event.occurredAt),
        data: { ...data, disconnectedAt: later(data.disconnectedAt) },
      };
      if (where === 'in flight') await gateOf(String(data.connectionId));
      return busPublish(subject, shifted, traceparent);
    });
    const publisher = gatewayB.app.get(ChargePointEventPublisher);
    const publish = publisher.publish.bind(publisher);
    jest.spyOn(publisher, 'publish').mockImplementation((subject, source, data, options) => {
      if (!swept(subject, data)) return publish(subject, source, data, options);
      const done = (async () => {
        if (where === 'stalled') await gateOf(String((data as Record<string, unknown>).connectionId));
        await publish(subject, source, data, options);
      })();
      settled.push(done);
      return done;
    });
    return { held, settled };
  }

  /** Resolves once the recorder has every event stored so far. */
  async function caughtUp(): Promise<void> {
    const last = (await streams.streams.info(EVENT_STREAM.name)).state.last_seq;
    await eventually(
      () => recorder.events.at(-1)?.seq ?? 0,
      (seq) => seq >= last,
    );
  }

  const lostDisconnects = (connectionId: string) =>
    ofConnection(recorder, connectionId).filter(
      ({ subject, event }) => subject === DISCONNECTED && event.data.reason === 'gateway_instance_lost',
    );

  const announcedAgain = (connectionId: string, from: number) =>
    recorder.waitFor(CONNECTED, (data) => data.connectionId === connectionId, { from });

  async function expectStillConnected({
    cp,
    controller,
    connectionId,
  }: Awaited<ReturnType<typeof connected>>) {
    expect((cp as unknown as { state: number }).state).toBe(OPEN);
    expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({
      connectionId,
      gatewayInstance: 'gw-a',
    });
    const events = ofConnection(recorder, connectionId);
    expect({ lastWords: lastWords(events), events: events.map(word) }).toMatchObject({
      lastWords: { byTime: CONNECTED, byStream: CONNECTED },
    });
  }

  // The race: gw-b's disconnect, published after its compare-and-delete, came out after gw-a's connected event of the
  // connection written again over the delete marker, and the controller showed offline with its socket open. gw-a now
  // repeats that disconnect (same event id) before its connected event, so gw-b's late copy is dropped.
  it.each([
    ['stands still before its publish', 'stalled', 0],
    ['stands still before its publish, its clock 2 s ahead,', 'stalled', 2000],
    ['is slow to get its publish through', 'in flight', 0],
    ['is slow to get its publish through, its clock 2 s ahead,', 'in flight', 2000],
  ] as const)(
    'gw-b swept the entry and %s until gw-a announced the connection again: connected stays last',
    async (_case, where, skewMs) => {
      const one = await connected(gatewayA, newController());
      const wake = await standStill();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const sweep = holdSweptDisconnects(
        where,
        (connectionId) => (connectionId === one.connectionId ? released : undefined),
        skewMs,
      );
      await sweep.held;
      expect((await presence.get(one.controller.controllerUuid))?.operation).not.toBe('PUT');
      const from = recorder.mark;

      wake();
      await announcedAgain(one.connectionId, from);
      release();
      await Promise.all(sweep.settled);
      await caughtUp();

      await expectStillConnected(one);
      expect(lostDisconnects(one.connectionId)).toHaveLength(1);
      await expect(send(one.controller)).resolves.toMatchObject({ outcome: 'answered' });
    },
  );

  const storedBeforeTheRejoin = async (skewMs: number) => {
    const one = await connected(gatewayA, newController());
    const wake = await standStill();
    holdSweptDisconnects('in flight', () => undefined, skewMs);
    await recorder.waitFor(DISCONNECTED, (data) => data.connectionId === one.connectionId);
    const from = recorder.mark;

    wake();
    await announcedAgain(one.connectionId, from);
    await caughtUp();

    await expectStillConnected(one);
    expect(lostDisconnects(one.connectionId)).toHaveLength(1);
  };

  // The other way round: the disconnect is stored before gw-a writes its entry again. The connected event comes later
  // by stream order, and by event time while the clocks agree.
  it("gw-b's disconnect stored before gw-a writes its entry again: connected stays last", () =>
    storedBeforeTheRejoin(0));

  // Known gap (docs/ocpp-gateway.md): gw-b's stored disconnect carries gw-b's clock, 2 s ahead, which is later than
  // gw-a's connected event by event time; reading the stored copy's time would need a grant on the whole event stream
  // (charge-point-connection.lifecycle.ts, repeatSweptDisconnect).
  it.failing(
    "gw-b's disconnect stored before gw-a writes its entry again, gw-b's clock 2 s ahead: connected stays last",
    () => storedBeforeTheRejoin(2000),
  );

  // The entry is gone once the sweep deleted it: a disconnect whose publish failed then (NATS away) was lost for good,
  // and the controller stayed online. The sweeping instance now publishes it again each round until it goes out.
  it("gw-b's publish of a swept entry's disconnect fails: a later round publishes it", async () => {
    const one = await connected(gatewayA, newController());
    const publisher = gatewayB.app.get(ChargePointEventPublisher);
    const publish = publisher.publish.bind(publisher);
    let failed = 0;
    jest.spyOn(publisher, 'publish').mockImplementation((subject, source, data, options) => {
      const lost =
        subject === DISCONNECTED && (data as Record<string, unknown>).reason === 'gateway_instance_lost';
      if (lost && failed++ === 0) return Promise.reject(new Error('TIMEOUT'));
      return publish(subject, source, data, options);
    });
    await standStill();

    await recorder.waitFor(DISCONNECTED, (data) => data.connectionId === one.connectionId);
    expect(failed).toBe(2);
    expect(lostDisconnects(one.connectionId)).toHaveLength(1);
  });

  // gw-b found gw-a dead and is about to remove the entry when gw-a rejoins and writes it again: gw-b's
  // compare-and-delete fails, and it announces nothing.
  it("gw-a writes its entry again between the check of gw-b's sweep and its delete: no disconnect at all", async () => {
    const one = await connected(gatewayA, newController());
    const key = one.controller.controllerUuid;
    const registryB = gatewayB.app.get(ChargePointPresenceRegistry);
    const lifecycleA = gatewayA.app.get(ChargePointConnectionLifecycle);
    // Settles once gw-a's recovery of the connection has (a promise resolved with a promise follows it).
    let recovered!: (recovery: Promise<void>) => void;
    const recovery = new Promise<void>((resolve) => (recovered = resolve));
    const recover = lifecycleA.recoverPresence.bind(lifecycleA);
    jest.spyOn(lifecycleA, 'recoverPresence').mockImplementation((connection: ChargePointConnection) => {
      const done = recover(connection);
      if (connection.connectionId === one.connectionId) recovered(done);
      return done;
    });
    // gw-b's registry: its bucket is private, and its delete is the one step to hold.
    const bucket = (registryB as unknown as { entries: KV }).entries;
    const remove = bucket.delete.bind(bucket);
    let deleting!: () => void;
    const deleteHeld = new Promise<void>((resolve) => (deleting = resolve));
    jest.spyOn(bucket, 'delete').mockImplementation(async (k, options) => {
      if (k === key) {
        deleting();
        await recovery;
      }
      return remove(k, options);
    });
    const removeStale = registryB.removeStale.bind(registryB);
    let removed!: (outcome: Promise<boolean>) => void;
    // Likewise, gw-b's removeStale of the entry.
    const removal = new Promise<boolean>((resolve) => (removed = resolve));
    jest.spyOn(registryB, 'removeStale').mockImplementation((stale) => {
      const outcome = removeStale(stale);
      if (stale.presence.controllerUuid === key) removed(outcome);
      return outcome;
    });
    const wake = await standStill();
    await deleteHeld;

    wake();
    expect(await removal).toBe(false);
    await caughtUp();

    await expectStillConnected(one);
    expect(lostDisconnects(one.connectionId)).toEqual([]);
  });

  // A sweep of the whole instance interleaving with its rejoin: gw-b removed and announced two entries before gw-a
  // woke up, the third one's disconnect is on its way (held until gw-a announced that connection again), the others
  // it never reaches (gw-a is alive by then).
  it('a sweep of many connections interleaving with the rejoin: each open connection ends connected', async () => {
    const all: Awaited<ReturnType<typeof connected>>[] = [];
    for (let i = 0; i < 6; i++) all.push(await connected(gatewayA, newController()));
    const lifecycleA = gatewayA.app.get(ChargePointConnectionLifecycle);
    const recover = lifecycleA.recoverPresence.bind(lifecycleA);
    const recoveries = new Map<string, Promise<void>>();
    jest.spyOn(lifecycleA, 'recoverPresence').mockImplementation((connection: ChargePointConnection) => {
      const done = recover(connection);
      recoveries.set(connection.connectionId, done);
      return done;
    });
    const wake = await standStill();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const sweep = holdSweptDisconnects('stalled', (_connectionId, earlier) =>
      earlier === 2 ? released : undefined,
    );
    const third = await sweep.held;
    const from = recorder.mark;

    wake();
    await announcedAgain(third, from);
    release();
    await Promise.all(sweep.settled);
    await eventually(
      () => all.every(({ connectionId }) => recoveries.has(connectionId)),
      (everyOne) => everyOne,
    );
    await Promise.all(recoveries.values());
    await caughtUp();

    for (const one of all) {
      await expectStillConnected(one);
      expect(lostDisconnects(one.connectionId).length).toBeLessThanOrEqual(1);
    }
    expect(all.filter(({ connectionId }) => lostDisconnects(connectionId).length === 1)).toHaveLength(3);
    await expect(send(all[2].controller)).resolves.toMatchObject({ outcome: 'answered' });
  });

  // gw-b stands still between its delete and its publish for longer than JetStream's duplicate window can be counted
  // on (its clock is moved on instead of waiting): it reads the entry again, finds the connection announced again by
  // its instance (which repeated the disconnect itself), and publishes nothing.
  it('gw-b stood still long between delete and publish: a connection announced again is left alone', async () => {
    const one = await connected(gatewayA, newController());
    const registryB = gatewayB.app.get(ChargePointPresenceRegistry);
    const removeStale = registryB.removeStale.bind(registryB);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let removed!: (outcome: boolean) => void;
    const removal = new Promise<boolean>((resolve) => (removed = resolve));
    jest.spyOn(registryB, 'removeStale').mockImplementation(async (stale) => {
      const outcome = await removeStale(stale);
      if (stale.presence.controllerUuid !== one.controller.controllerUuid) return outcome;
      removed(outcome);
      await released;
      return outcome;
    });
    const sweep = holdSweptDisconnects('stalled', () => undefined);
    const wake = await standStill();
    expect(await removal).toBe(true);
    const from = recorder.mark;

    wake();
    await announcedAgain(one.connectionId, from);
    // gw-b's round goes on to forget gw-a (which fails: gw-a is back) once its sweep of the entry is over.
    const forget = jest.spyOn(registryB, 'forget');
    const now = performance.now.bind(performance);
    const later = jest.spyOn(performance, 'now').mockImplementation(() => now() + 5 * 60_000);
    release();
    await eventually(
      () => forget.mock.calls.length,
      (calls) => calls > 0,
    );
    later.mockRestore();
    await caughtUp();

    expect(sweep.settled).toEqual([]);
    await expectStillConnected(one);
    expect(lostDisconnects(one.connectionId)).toHaveLength(1);
  });

  // A connection announced again after a sweep and closed within JetStream's duplicate window: its disconnect must be
  // stored, not taken for a repeat of the sweep's (the same event id, from the connection id, made it one).
  it('a connection announced again after a sweep, then closed: its disconnect is stored, the last word', async () => {
    const one = await connected(gatewayA, newController());
    const wake = await standStill();
    await recorder.waitFor(DISCONNECTED, (data) => data.connectionId === one.connectionId);
    const from = recorder.mark;
    wake();
    await announcedAgain(one.connectionId, from);

    await one.cp.close();
    await eventually(
      async () => (await presence.get(one.controller.controllerUuid))?.operation,
      (operation) => operation !== 'PUT',
    );
    await gatewayA.app.get(ChargePointConnectionLifecycle).disconnectsAnnounced();
    await caughtUp();
    const events = ofConnection(recorder, one.connectionId);
    expect({ lastWords: lastWords(events), events: events.map(word) }).toMatchObject({
      lastWords: { byTime: DISCONNECTED, byStream: DISCONNECTED },
    });
  });

  // The socket closes while its recovery is announcing it again: the withdrawal and the disconnect wait for the
  // recovery, so that neither the entry nor the connected event outlives the socket. The recovery's connected event is
  // held until the close has either gone on without it (its disconnect is stored) or stopped to wait for it.
  it('a socket closed while its recovery announces it again: disconnected is its last word, no entry', async () => {
    const one = await connected(gatewayA, newController());
    const connection = gatewayA.app
      .get(ChargePointConnectionsRegistry)
      .all()
      .find(({ connectionId }) => connectionId === one.connectionId);
    if (!connection) throw new Error('no such connection on gw-a');
    const bus = gatewayA.app.get(JetStreamEventBus);
    const publish = bus.publish.bind(bus);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    jest.spyOn(bus, 'publish').mockImplementation(async (subject, event, traceparent) => {
      if (subject === CONNECTED && (event as Envelope).data.connectionId === one.connectionId) {
        holding();
        await released;
      }
      return publish(subject, event, traceparent);
    });
    const wake = await standStill();
    await recorder.waitFor(DISCONNECTED, (data) => data.connectionId === one.connectionId);
    wake();
    await held;

    // The close waits for the connection to be ready, then (microtasks later) withdraws it, unless it waits for the
    // recovery: once the microtasks have run, a close that did not withdraw waits.
    const registryA = gatewayA.app.get(ChargePointPresenceRegistry);
    const withdraw = jest.spyOn(registryA, 'withdraw');
    const ready = connection.ready.bind(connection);
    jest.spyOn(connection, 'ready').mockImplementation(() => {
      setImmediate(() => {
        if (withdraw.mock.calls.length === 0) release();
      });
      return ready();
    });
    const from = recorder.mark;
    void recorder
      .waitFor(DISCONNECTED, (data) => data.connectionId === one.connectionId, { from })
      .then(release, release);
    await one.cp.close();
    await released;
    await eventually(
      () => withdraw.mock.calls.length,
      (calls) => calls > 0,
    );
    await gatewayA.app.get(ChargePointConnectionLifecycle).disconnectsAnnounced();
    await caughtUp();

    expect((await presence.get(one.controller.controllerUuid))?.operation).not.toBe('PUT');
    const events = ofConnection(recorder, one.connectionId);
    expect({ lastWords: lastWords(events), events: events.map(word) }).toMatchObject({
      lastWords: { byTime: DISCONNECTED, byStream: DISCONNECTED },
    });
  });

  // gw-a stood still and was taken for dead, and a profile-0 socket of the controller of its profile-1 socket opened on
  // gw-b: its handshake's check found no live entry of a higher profile (swept, or its instance dead), and it wrote its
  // entry. When gw-a wakes up, its socket never yields to profile 0: it writes its entry back over that one (on the
  // profile-0 socket's notice, or the rejoin's recovery when the notice was lost) and announces it, and the profile-0
  // socket is closed (1008). gw-a stands still entirely: its upkeep and its recoveries wait until it wakes up. A
  // sweep's disconnect that gw-b publishes only after that (it stood still) must not be the last word either.
  it.each([
    ["after gw-b's sweep removed the entry", 'stored', 'heard'],
    ["after gw-b's sweep removed the entry (its notice lost to gw-a)", 'stored', 'lost'],
    [
      "after gw-b's sweep removed the entry, the sweep's disconnect stalled until gw-a's answer",
      'stalled',
      'heard',
    ],
    ["over gw-a's entry, gw-a taken for dead before any sweep", 'none', 'heard'],
  ] as const)(
    'a profile-0 socket on gw-b wrote its entry %s: the profile-1 socket keeps the controller, 1008 for the other',
    async (_case, sweep, notice) => {
      const controller = newController('open');
      const legit = await connected(gatewayA, controller);
      const legitCalls: unknown[] = [];
      legit.cp.handle('Reset', ({ params }) => {
        legitCalls.push(params);
        return Promise.resolve({ status: 'Accepted' });
      });
      const lifecycleA = gatewayA.app.get(ChargePointConnectionLifecycle);
      const recover = lifecycleA.recoverPresence.bind(lifecycleA);
      let wakeRecoveries!: () => void;
      const recoveriesWoken = new Promise<void>((resolve) => (wakeRecoveries = resolve));
      wakers.push(wakeRecoveries);
      const recoveries: Promise<void>[] = [];
      jest.spyOn(lifecycleA, 'recoverPresence').mockImplementation((connection: ChargePointConnection) => {
        const done = recoveriesWoken.then(() => recover(connection));
        recoveries.push(done);
        return done;
      });
      if (sweep === 'none') {
        // gw-b finds no instance dead, so that the entry stays for the profile-0 socket's check to read: from its next
        // round on (rounds never overlap, so one in progress is over then).
        const registryB = gatewayB.app.get(ChargePointPresenceRegistry);
        await new Promise<void>((resolve) => {
          jest.spyOn(registryB, 'deadInstances').mockImplementation(() => {
            resolve();
            return Promise.resolve([]);
          });
        });
      }
      let releaseSweep!: () => void;
      const sweepReleased = new Promise<void>((resolve) => (releaseSweep = resolve));
      wakers.push(releaseSweep);
      const stalled =
        sweep === 'stalled'
          ? holdSweptDisconnects('stalled', (id) => (id === legit.connectionId ? sweepReleased : undefined))
          : undefined;
      if (notice === 'lost') {
        const channel = gatewayA.app.get<ConnectionTakeoverChannel, { heard(message: Msg): void }>(
          ConnectionTakeoverChannel,
        );
        const heard = channel.heard.bind(channel);
        jest.spyOn(channel, 'heard').mockImplementation((message) => {
          if (!message.subject.endsWith(controller.controllerUuid)) heard(message);
        });
      }
      const wake = await standStill();
      if (stalled) await stalled.held;
      if (sweep === 'stored') {
        await recorder.waitFor(DISCONNECTED, (data) => data.connectionId === legit.connectionId);
      }

      controller.securityProfile = 0;
      const from = recorder.mark;
      const intruder = chargePoint({
        port: gatewayB.ocppPort,
        controller,
        protocols: ['ocpp1.6'],
        password: null,
      });
      clients.push(intruder);
      const intruderCalls: unknown[] = [];
      intruder.handle('Reset', ({ params }) => {
        intruderCalls.push(params);
        return Promise.resolve({ status: 'Accepted' });
      });
      const intruderClosed = new Promise<number>((resolve) =>
        intruder.once('close', ({ code }: { code: number }) => resolve(code)),
      );
      await intruder.connect();
      const intruderConnected = await recorder.waitFor(
        CONNECTED,
        (data) => data.controllerUuid === controller.controllerUuid,
        { from },
      );
      expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({
        connectionId: intruderConnected.data.connectionId,
        gatewayInstance: 'gw-b',
        securityProfile: 0,
      });

      const woken = recorder.mark;
      wake();
      wakeRecoveries();
      const stillOpen = new Promise<string>((resolve) =>
        setTimeout(() => resolve('still open'), 10_000).unref(),
      );
      expect(await Promise.race([intruderClosed, stillOpen])).toBe(1008);
      await announcedAgain(legit.connectionId, woken);
      releaseSweep();
      await Promise.all(stalled?.settled ?? []);
      await gatewayB.app.get(ChargePointConnectionLifecycle).disconnectsAnnounced();
      // The rejoin's recovery (gw-a's state was made old: it finds itself found dead), and the notice's.
      await eventually(
        () => recoveries.length,
        (count) => count >= (notice === 'heard' ? 2 : 1),
      );
      await Promise.all(recoveries);
      await caughtUp();

      await expectStillConnected({ ...legit, controller });
      expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({ securityProfile: 1 });
      await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
      expect({ intruderCalls, legitCalls: legitCalls.length }).toEqual({ intruderCalls: [], legitCalls: 1 });
    },
  );
});
