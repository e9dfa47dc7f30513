import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { type KV, type KvEntry, KvWatchInclude, Kvm } from '@nats-io/kv';
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import {
  CHARGE_POINT_PRESENCE_BUCKET,
  ChargePointEventSubjects,
  GATEWAY_INSTANCES_BUCKET,
  type OcppCallReply,
  type OcppCallRequest,
  OcppGatewaySubjects,
} from '@cpc/contracts';
import { eventually, type EventRecorder } from '@cpc/testing';
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
import { ChargePointConnectionLifecycle } from './charge-point-connection.lifecycle.js';
import { ChargePointPresenceRegistry, gatewayInstanceKey } from './charge-point-presence.registry.js';
import { ConnectionTakeoverChannel } from './connection-takeover.channel.js';

const PASSWORD = 'correct-horse-battery-1';
const OPEN = 1;
// Both instances alike: each judges the other alive by its own TTL. A round (a third) every 1.5 s, and the audit
// checks every connection each round.
const PRESENCE_ENV = { OCPP_PRESENCE_TTL_MS: '4500', OCPP_PRESENCE_AUDIT_MS: '1500' };

/** One write to a presence key as a watcher saw it. */
interface Write {
  operation: KvEntry['operation'];
  revision: number;
  connectionId: string | undefined;
}

/**
 * The presence upkeep writes a connection's entry again when it was lost (the audit found it missing, or the instance
 * was found dead and rejoins). A takeover on another instance may write its newer entry between the recovery's read
 * and its write; the recovery must then yield, not write the older connection's entry over the newer one. The moment
 * is forced: the recovery's read of the key on instance A returns only after the newer connection on B wrote its entry.
 */
describe('ocpp-gateway: presence recovery racing a takeover on another instance', () => {
  let rig: GatewayTestRig;
  let gatewayA: RunningOcppGateway;
  let gatewayB: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  let platform: NatsConnection;
  let presence: KV;
  let instances: KV;
  const clients: ChargePoint[] = [];
  let counter = 0;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ ...PRESENCE_ENV, OCPP_GATEWAY_INSTANCE_ID: 'gw-a' });
    ({ gateway: gatewayA, services, events } = rig);
    gatewayB = await startGatewayForTest(rig.nats.url, { ...PRESENCE_ENV, OCPP_GATEWAY_INSTANCE_ID: 'gw-b' });
    services.addTenant('open');
    services.tenantsAllowingProfile0.add('open');
    platform = await connect({ servers: rig.nats.url });
    presence = await new Kvm(platform).open(CHARGE_POINT_PRESENCE_BUCKET);
    instances = await new Kvm(platform).open(GATEWAY_INSTANCES_BUCKET);
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(clients.splice(0).map((client) => client.close({ force: true })));
  });

  afterAll(async () => {
    await platform?.close();
    await gatewayB?.app.close();
    await rig?.stop();
  });

  function client(gateway: RunningOcppGateway, controller: FakeController, password?: null): ChargePoint {
    const created = chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp1.6'], password });
    clients.push(created);
    return created;
  }

  async function connected(gateway: RunningOcppGateway, controller: FakeController, password?: null) {
    const from = events.mark;
    const cp = client(gateway, controller, password);
    cp.handle('Reset', () => Promise.resolve({ status: 'Accepted' }));
    await cp.connect();
    const event = await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    return { cp, connectionId: String(event.data.connectionId) };
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

  /** Every write to the controller's presence key from now on, in revision order. */
  async function recordWrites(controller: FakeController): Promise<{ writes: Write[]; stop: () => void }> {
    const writes: Write[] = [];
    const watch = await presence.watch({
      key: controller.controllerUuid,
      include: KvWatchInclude.UpdatesOnly,
    });
    void (async () => {
      for await (const entry of watch) {
        const connectionId =
          entry.operation === 'PUT' ? entry.json<{ connectionId: string }>().connectionId : undefined;
        writes.push({ operation: entry.operation, revision: entry.revision, connectionId });
      }
    })();
    return { writes, stop: () => watch.stop() };
  }

  /**
   * Lets gateway A's recovery of `connectionId` run as usual, except that its first read of the controller's presence
   * key returns (what it read) only after `meanwhile` ran: the newer connection's entry lands between read and write.
   * Settles as the recovery does, once the upkeep called it.
   */
  function interleaveRecovery(
    controller: FakeController,
    connectionId: string,
    meanwhile: () => Promise<void>,
  ): Promise<void> {
    const lifecycle = gatewayA.app.get(ChargePointConnectionLifecycle);
    // The registry's bucket is private: the test reaches into it to hold the one read between the two writes.
    const bucket = gatewayA.app.get<ChargePointPresenceRegistry, { entries: KV }>(
      ChargePointPresenceRegistry,
    ).entries;
    const recover = lifecycle.recoverPresence.bind(lifecycle);
    const read = bucket.get.bind(bucket);
    let armed = false;
    jest.spyOn(bucket, 'get').mockImplementation(async (key, options) => {
      const found = await read(key, options);
      if (armed && key === controller.controllerUuid) {
        armed = false;
        await meanwhile();
      }
      return found;
    });
    return new Promise((settled) => {
      jest.spyOn(lifecycle, 'recoverPresence').mockImplementation((connection: ChargePointConnection) => {
        if (connection.connectionId !== connectionId) return recover(connection);
        armed = true;
        const recovery = recover(connection);
        settled(recovery);
        return recovery;
      });
    });
  }

  it.each([
    [
      'the audit, after the entry was removed behind its back',
      async (controller: FakeController) => {
        await presence.delete(controller.controllerUuid);
      },
    ],
    [
      'the rejoin, after another instance found it dead and swept it',
      async (controller: FakeController) => {
        // What a sweeping instance does, entry first so that gw-b's own sweep finds nothing of gw-a's to announce.
        await presence.delete(controller.controllerUuid);
        const state = await instances.get(gatewayInstanceKey('gw-a'));
        await instances.put(
          gatewayInstanceKey('gw-a'),
          JSON.stringify({ ...state?.json<object>(), lost: true }),
        );
      },
    ],
  ])(
    // The recovery's write is a compare-and-set on what it read: it fails, and the recovery finds the newer entry.
    'recovery by %s: a takeover written between its read and its write wins, the old socket yields',
    async (_path, losePresence) => {
      counter += 1;
      const controller = services.addController({
        tenantSlug: 'acme',
        identity: `CP-RECOVER-${counter}`,
        password: PASSWORD,
      });
      const old = await connected(gatewayA, controller);
      const oldClosed = closeOf(old.cp);
      const writes = await recordWrites(controller);
      let newer: { cp: ChargePoint; connectionId: string } | undefined;
      const recovery = interleaveRecovery(controller, old.connectionId, async () => {
        newer = await connected(gatewayB, controller);
      });
      await losePresence(controller);

      await recovery;
      expect(await oldClosed).toBe(1000);
      if (!newer) throw new Error('the takeover did not happen');
      const newerId = newer.connectionId;
      try {
        // The recovery's writes are acknowledged: once the watcher is at the key's last revision, it saw them all.
        const last = (await presence.get(controller.controllerUuid))?.revision ?? 0;
        await eventually(
          () => writes.writes.at(-1)?.revision ?? 0,
          (revision) => revision >= last,
        );
        // Once the newer connection's entry was written, nothing names the old connection again.
        const newerWritten = writes.writes.findIndex((write) => write.connectionId === newerId);
        expect(newerWritten).toBeGreaterThanOrEqual(0);
        const oldWritesAfterNewer = writes.writes
          .slice(newerWritten)
          .filter((write) => write.connectionId === old.connectionId);
        expect({ oldWritesAfterNewer }).toEqual({ oldWritesAfterNewer: [] });
      } finally {
        writes.stop();
      }
      // The old connection was not announced again (one connected event: its first), and the newer one holds it.
      expect(
        events.on(
          ChargePointEventSubjects.connected,
          (data) =>
            data.controllerUuid === controller.controllerUuid && data.connectionId === old.connectionId,
        ),
      ).toHaveLength(1);
      await eventually(
        async () => (await presence.get(controller.controllerUuid))?.json<{ connectionId: string }>(),
        (entry) => entry?.connectionId === newerId,
      );
      expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({
        gatewayInstance: 'gw-b',
      });
      await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
      expect((newer.cp as unknown as { state: number }).state).toBe(OPEN);
    },
  );

  // A sweeping instance removes the entry (compare-and-delete) between the recovery's read, which found it still this
  // connection's, and its write: the write fails, the recovery reads again, writes over the delete marker and
  // announces the connection again.
  it('recovery by the rejoin, its entry swept between its read and its write: written, announced again', async () => {
    counter += 1;
    const controller = services.addController({
      tenantSlug: 'acme',
      identity: `CP-RECOVER-${counter}`,
      password: PASSWORD,
    });
    const only = await connected(gatewayA, controller);
    const from = events.mark;
    const recovery = interleaveRecovery(controller, only.connectionId, async () => {
      await presence.delete(controller.controllerUuid);
    });
    const state = await instances.get(gatewayInstanceKey('gw-a'));
    await instances.put(gatewayInstanceKey('gw-a'), JSON.stringify({ ...state?.json<object>(), lost: true }));

    await recovery;
    expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({
      connectionId: only.connectionId,
      gatewayInstance: 'gw-a',
    });
    const again = await events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    expect(again.data.connectionId).toBe(only.connectionId);
    await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
  });

  // A profile-0 connection yields to a higher-profile one found in its entry as it does to a takeover notice (closed
  // with 1008, not 1000). The notice of the profile-1 socket on gw-b is lost to gw-a (as while its NATS connection was
  // away): gw-a's audit finds the entry not its own, and the recovery finds the higher profile there.
  it('recovery of a profile-0 connection finding a higher-profile entry: closed (1008), the other stays', async () => {
    counter += 1;
    const controller = services.addController({
      tenantSlug: 'open',
      identity: `CP-RECOVER-P0-${counter}`,
      securityProfile: 0,
    });
    const intruder = await connected(gatewayA, controller, null);
    const intruderClosed = closeOf(intruder.cp);
    const channel = gatewayA.app.get<ConnectionTakeoverChannel, { heard(message: Msg): void }>(
      ConnectionTakeoverChannel,
    );
    const heard = channel.heard.bind(channel);
    jest.spyOn(channel, 'heard').mockImplementation((message) => {
      if (!message.subject.endsWith(controller.controllerUuid)) heard(message);
    });
    const lifecycle = gatewayA.app.get(ChargePointConnectionLifecycle);
    const recover = lifecycle.recoverPresence.bind(lifecycle);
    const recovery = new Promise<void>((settled) => {
      jest.spyOn(lifecycle, 'recoverPresence').mockImplementation((connection: ChargePointConnection) => {
        const recovering = recover(connection);
        if (connection.connectionId === intruder.connectionId) settled(recovering);
        return recovering;
      });
    });

    controller.securityProfile = 1;
    controller.password = PASSWORD;
    const legit = await connected(gatewayB, controller);
    await recovery;

    expect(await intruderClosed).toBe(1008);
    expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({
      connectionId: legit.connectionId,
      gatewayInstance: 'gw-b',
      securityProfile: 1,
    });
    await expect(send(controller)).resolves.toMatchObject({ outcome: 'answered' });
    expect((legit.cp as unknown as { state: number }).state).toBe(OPEN);
  });
});
