import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  ChargePointEventSubjects,
  CommandSubjects,
  type CreatedWebhookSubscription,
  type EventEnvelope,
  WebhookSubjects,
} from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { commandStatusChangedEvent, eventually, ServiceTestRig, WebhookReceiver } from '@cpc/testing';
import type { RunningService } from '@cpc/service-runtime';
import { createWebhooksDataSource } from '../data-source.js';
import { startWebhookService } from '../start-webhook-service.js';
import { webhookServiceTestConfig } from '../testing/webhook-service-test-config.js';
import { DeliverySignal } from './delivery-signal.js';

jest.setTimeout(60_000);

/** Longer than the spec runs: nothing here happens because a poll or an old ack-floor reading ran out. */
const NEVER_MS = 3_600_000;

let rig: ServiceTestRig;
let receiver: WebhookReceiver;
let service: RunningService;
const tenantUuid = randomUUID();

beforeAll(async () => {
  rig = await ServiceTestRig.start({
    migrate: (databaseUrl) => migrateServiceSchema(createWebhooksDataSource(databaseUrl)),
    start: async ({ natsUrl, databaseUrl }) =>
      (service = await startWebhookService(
        webhookServiceTestConfig(
          { natsUrl, databaseUrl },
          {},
          { idlePollIntervalMs: NEVER_MS, ackFloorMaxAgeMs: NEVER_MS },
        ),
      )),
  });
  receiver = await WebhookReceiver.start();
  await rig.call<CreatedWebhookSubscription>(
    WebhookSubjects.create,
    { url: receiver.url, event_types: ['command.status_changed', 'controller.connection_changed'] },
    tenantUuid,
  );
});

afterEach(() => jest.restoreAllMocks());

afterAll(async () => {
  await receiver?.close();
  await rig?.stop();
});

describe('an event whose rows were written', () => {
  it('is delivered once its acknowledgement moved the ack floor, without a poll (command events, in batches)', async () => {
    for (let index = 1; index <= 5; index += 1) {
      const event = commandStatusChangedEvent({
        tenantUuid,
        commandUuid: randomUUID(),
        status: 'pending',
        controllerUuid: randomUUID(),
        occurredAt: new Date().toISOString(),
      });
      const before = receiver.received.length;
      await rig.eventBus.publish(CommandSubjects.statusChanged, event);
      // Each only after the one before it arrived: the reading the loop last took is always younger than NEVER_MS.
      await eventually(
        () => receiver.received.length,
        (count) => count === before + 1,
      );
    }
  });

  it('is delivered once its acknowledgement moved the ack floor, without a poll (charge point events)', async () => {
    for (let index = 1; index <= 5; index += 1) {
      const controllerUuid = randomUUID();
      const occurredAt = new Date().toISOString();
      const event: EventEnvelope<unknown> = {
        eventId: randomUUID(),
        occurredAt,
        tenantUuid,
        data: {
          controllerUuid,
          ocppIdentity: `CP-${index}`,
          protocol: 'ocpp1.6',
          gatewayInstance: 'a',
          connectedAt: occurredAt,
        },
      };
      const before = receiver.received.length;
      await rig.eventBus.publish(ChargePointEventSubjects.connected, event);
      await eventually(
        () => receiver.received.length,
        (count) => count === before + 1,
      );
      expect(JSON.parse(receiver.received.at(-1)!.body)).toMatchObject({
        type: 'controller.connection_changed',
      });
    }
  });

  // The fan-out finds the loop busy (claiming) whenever it runs then: such events are acknowledged unconfirmed, and the
  // loop's claims may use a floor reading from before them, young enough (here always) to be used again.
  it('is delivered when the fan-out took the loop for busy, without a poll', async () => {
    jest.spyOn(service.app.get(DeliverySignal), 'loopWaiting', 'get').mockReturnValue(false);
    for (let index = 1; index <= 3; index += 1) {
      const before = receiver.received.length;
      await rig.eventBus.publish(
        CommandSubjects.statusChanged,
        commandStatusChangedEvent({
          tenantUuid,
          commandUuid: randomUUID(),
          status: 'pending',
          controllerUuid: randomUUID(),
          occurredAt: new Date().toISOString(),
        }),
      );
      await eventually(
        () => receiver.received.length,
        (count) => count === before + 1,
      );
    }
  });
});
