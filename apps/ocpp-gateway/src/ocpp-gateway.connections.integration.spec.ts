import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  ChargePointEventSubjects,
  type ControllerCredentialsChangedEvent,
} from '@cpc/contracts';
import { upgradeStatus } from '@cpc/testing';
import { ChargePointPresenceRegistry } from './connections/charge-point-presence.registry.js';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  type ChargePoint,
  chargePoint,
  type FakeController,
  type GatewayTestRig,
  startGatewayForTest,
  startGatewayTestRig,
  closeOf,
} from './testing/ocpp-gateway-test-bed.js';

const PASSWORD = 'correct-horse-battery-1';
const NEW_PASSWORD = 'correct-horse-battery-2';

/**
 * What a connected charge point may do, and which changes end its connection: credential changes (events from
 * assets-service, also racing a handshake in flight), the incoming-call budget, and security profile 0.
 */
describe('ocpp-gateway: connected charge points', () => {
  let rig: GatewayTestRig;
  let second: RunningOcppGateway;
  /** Small call budget, profile 0 switched off. */
  let strict: RunningOcppGateway;
  let nats: NatsConnection;
  let identities = 0;

  beforeAll(async () => {
    rig = await startGatewayTestRig();
    second = await startGatewayForTest(rig.nats.url);
    strict = await startGatewayForTest(rig.nats.url, {
      OCPP_INCOMING_CALL_BURST: '5',
      OCPP_INCOMING_CALLS_PER_SECOND: '1',
      OCPP_INCOMING_CALL_REFUSALS_BEFORE_CLOSE: '20',
      OCPP_ALLOW_SECURITY_PROFILE_0: 'false',
    });
    nats = await connect({ servers: rig.nats.url });
    rig.services.addTenant('acme');
    rig.services.addTenant('open');
    rig.services.tenantsAllowingProfile0.add('open');
  });

  afterAll(async () => {
    await nats?.close();
    await second?.app.close();
    await strict?.app.close();
    await rig?.stop();
  });

  const newController = (options: { securityProfile?: number; tenantSlug?: string } = {}): FakeController =>
    rig.services.addController({
      tenantSlug: options.tenantSlug ?? 'acme',
      identity: `CP-${(identities += 1)}`,
      password: options.securityProfile === 0 ? undefined : PASSWORD,
      securityProfile: options.securityProfile ?? 1,
    });

  const connected = async (controller: FakeController, port = rig.gateway.ocppPort): Promise<ChargePoint> => {
    const from = rig.events.mark;
    const client = chargePoint({ port, controller, protocols: ['ocpp1.6'] });
    await client.connect();
    await rig.events.waitFor(
      ChargePointEventSubjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    return client;
  };

  /** What assets-service does on a credential change: the new version in its table, the event on the stream. */
  const changeCredentials = async (
    controller: FakeController,
    change: Partial<Pick<FakeController, 'password' | 'securityProfile'>>,
  ): Promise<void> => {
    Object.assign(controller, change);
    controller.credentialsVersion += 1;
    const changedAt = new Date().toISOString();
    const event: ControllerCredentialsChangedEvent = {
      eventId: randomUUID(),
      occurredAt: changedAt,
      tenantUuid: controller.tenantUuid,
      data: {
        controllerUuid: controller.controllerUuid,
        ocppIdentity: controller.identity,
        credentialsVersion: controller.credentialsVersion,
        changed: change.password !== undefined ? ['ocpp_password'] : ['security_profile'],
        changedAt,
      },
    };
    await jetstream(nats).publish(AssetsSubjects.controllerCredentialsChanged, JSON.stringify(event), {
      msgID: event.eventId,
    });
  };

  describe('credential changes', () => {
    it.each([
      ['the instance the charge point is connected to', () => rig.gateway.ocppPort],
      ['another instance', () => second.ocppPort],
    ])(
      'close the socket on %s with 1008; the old password is refused, the new one works',
      async (_, port) => {
        const controller = newController();
        const client = await connected(controller, port());
        const closed = closeOf(client);

        await changeCredentials(controller, { password: NEW_PASSWORD });

        expect(await closed).toBe(1008);
        const path = `/ocpp/acme/${controller.identity}`;
        await expect(
          upgradeStatus(port(), { path, basicAuth: `${controller.identity}:${PASSWORD}` }),
        ).resolves.toMatchObject({ status: 401 });
        await expect(
          upgradeStatus(port(), { path, basicAuth: `${controller.identity}:${NEW_PASSWORD}` }),
        ).resolves.toMatchObject({ status: 101 });
      },
    );

    it('leave a socket that authenticated with the new credentials alone (a repeated or late event)', async () => {
      const controller = newController();
      await changeCredentials(controller, { password: NEW_PASSWORD });
      const client = await connected(controller);
      // The same version again, as a redelivery would bring it; then a barrier that proves it was handled.
      controller.credentialsVersion -= 1;
      await changeCredentials(controller, { password: NEW_PASSWORD });
      const barrier = newController();
      const barrierClosed = closeOf(await connected(barrier));
      await changeCredentials(barrier, { password: NEW_PASSWORD });
      await barrierClosed;

      await expect(client.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
      await client.close();
    });

    it('close a socket whose handshake was checked before the change and opened after its event', async () => {
      const controller = newController();
      let releaseAnswer!: () => void;
      const asked = new Promise<void>((resolve) => {
        rig.services.onAuthentication = (request) => {
          if (request.ocppIdentity === controller.identity) resolve();
        };
      });
      rig.services.authenticationsHeldUntil = new Promise((resolve) => (releaseAnswer = resolve));
      const client = chargePoint({ port: rig.gateway.ocppPort, controller, protocols: ['ocpp1.6'] });
      const closed = closeOf(client);
      const connecting = client.connect();
      try {
        // assets-service has read the row with the old version; now the change commits and its event goes out.
        await asked;
        await changeCredentials(controller, { password: NEW_PASSWORD });
        // Events are handled in order: once a later one closed another socket, this one was handled too.
        const barrier = newController();
        rig.services.authenticationsHeldUntil = undefined;
        const barrierClosed = closeOf(await connected(barrier));
        await changeCredentials(barrier, { password: NEW_PASSWORD });
        await barrierClosed;
      } finally {
        releaseAnswer();
        rig.services.authenticationsHeldUntil = undefined;
        rig.services.onAuthentication = () => undefined;
      }
      await connecting.catch(() => undefined);
      expect(await closed).toBe(1008);
    });
  });

  describe('the incoming-call budget', () => {
    const status = () => ({
      connectorId: 1,
      errorCode: 'NoError',
      status: 'Available',
      timestamp: new Date().toISOString(),
    });

    it('answers calls beyond it GenericError without publishing them, closes a flooder (1008), and keeps serving others', async () => {
      const flooder = newController();
      const neighbour = newController();
      const flooding = await connected(flooder, strict.ocppPort);
      const wellBehaved = await connected(neighbour, strict.ocppPort);
      (flooding as unknown as { reconfigure(options: object): void }).reconfigure({ callConcurrency: 300 });
      const closed = closeOf(flooding);
      const from = rig.events.mark;

      const outcomes = await Promise.allSettled(
        Array.from({ length: 300 }, () => flooding.call('StatusNotification', status())),
      );

      const answered = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
      const refused = outcomes.filter(
        (outcome) =>
          outcome.status === 'rejected' &&
          (outcome.reason as { rpcErrorCode?: string }).rpcErrorCode === 'GenericError',
      );
      expect(answered).toBeGreaterThanOrEqual(1);
      expect(answered).toBeLessThan(300);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect((refused[0] as PromiseRejectedResult).reason.message).toMatch(/too many calls/);
      expect(await closed).toBe(1008);

      // The neighbour's round trip is answered; its event, published after the flood, is the barrier for counting.
      await expect(wellBehaved.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
      await wellBehaved.call('StatusNotification', status());
      await rig.events.waitFor(
        ChargePointEventSubjects.connectorStatus,
        (data) => data.controllerUuid === neighbour.controllerUuid,
        { from },
      );
      const published = rig.events.events
        .slice(from)
        .filter(
          ({ subject, event }) =>
            subject === ChargePointEventSubjects.connectorStatus &&
            event.data.controllerUuid === flooder.controllerUuid,
        );
      expect(published).toHaveLength(answered);
      await wellBehaved.close();
    });
  });

  describe('security profile 0', () => {
    const attempt = (port: number, controller: FakeController) =>
      upgradeStatus(port, { path: `/ocpp/${controller.tenantSlug}/${controller.identity}` });

    it('is refused (401) for a tenant that does not allow it, and accepted for one that does', async () => {
      await expect(attempt(rig.gateway.ocppPort, newController({ securityProfile: 0 }))).resolves.toEqual({
        status: 401,
        body: 'Unauthorized',
      });
      await expect(
        attempt(rig.gateway.ocppPort, newController({ securityProfile: 0, tenantSlug: 'open' })),
      ).resolves.toMatchObject({ status: 101 });
    });

    it('is refused (401) everywhere by a gateway with OCPP_ALLOW_SECURITY_PROFILE_0=false', async () => {
      await expect(
        attempt(strict.ocppPort, newController({ securityProfile: 0, tenantSlug: 'open' })),
      ).resolves.toMatchObject({ status: 401 });
    });

    it.each([
      ['on the same instance', () => rig.gateway.ocppPort],
      ['on another instance', () => second.ocppPort],
    ])(
      'cannot take over a socket that authenticated with profile 1 (%s): the newcomer gets 401, the old one stays',
      async (_, port) => {
        const controller = newController({ tenantSlug: 'open' });
        const client = await connected(controller);
        // The window before a profile change reaches the gateway: the registry already says 0, no event yet.
        controller.securityProfile = 0;
        controller.password = undefined;

        await expect(attempt(port(), controller)).resolves.toMatchObject({ status: 401 });

        await expect(client.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
        await client.close();
      },
    );
  });

  describe('announcing a connection', () => {
    it('tries again when announcing fails (a NATS timeout in a storm): the connected event is published', async () => {
      const presence = rig.gateway.app.get(ChargePointPresenceRegistry);
      const announce = jest.spyOn(presence, 'announce').mockRejectedValueOnce(new Error('TIMEOUT'));
      try {
        const controller = newController();
        const client = await connected(controller);
        expect(announce).toHaveBeenCalledTimes(2);
        expect(await presence.holder(controller.controllerUuid)).toBeDefined();
        await client.close();
      } finally {
        announce.mockRestore();
      }
    });
  });
});
