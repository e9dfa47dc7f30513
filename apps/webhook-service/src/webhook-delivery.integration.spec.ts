import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  AssetsSubjects,
  ChargePointEventSubjects,
  chargingSessionUuidOf,
  CommandSubjects,
  type CreatedWebhookSubscription,
  ErrorCode,
  EVENT_STREAM,
  type EventEnvelope,
  type PlugFilter,
  type WebhookDeliveryPage,
  type WebhookDeliveryView,
  WebhookSubjects,
  type WebhookSubscriptionPage,
  type WebhookSubscriptionView,
} from '@cpc/contracts';
import { jetstreamManager } from '@nats-io/jetstream';
import { type Pool } from 'pg';
import { migrateServiceSchema } from '@cpc/database';
import { type RunningService } from '@cpc/service-runtime';
import { DataSource } from 'typeorm';
import { DomainError } from '@cpc/errors';
import {
  commandStatusChangedEvent,
  eventually,
  serveAsNestService,
  ServiceTestRig,
  WebhookReceiver,
} from '@cpc/testing';
import pg from 'pg';
import { createWebhooksDataSource } from './data-source.js';
import { CHARGE_POINT_EVENTS_CONSUMER, COMMAND_STATUS_CONSUMER } from './events/consumer-names.js';
import { enabledSubscriptions } from './repositories/subscriptions.repository.js';
import { WebhookEventsConsumer } from './events/webhook-events.consumer.js';
import { SubscriptionIndex } from './subscriptions/subscription-index.js';
import { SubscriptionsService } from './subscriptions/subscriptions.service.js';
import { startWebhookService } from './start-webhook-service.js';
import { webhookServiceTestConfig } from './testing/webhook-service-test-config.js';
import { WEBHOOK_SERVICE_TUNING } from './webhook-service.config.js';

jest.setTimeout(60_000);

let rig: ServiceTestRig;
/** The replica the rig started. */
let replica: RunningService;
let database: pg.Client;
const receivers: WebhookReceiver[] = [];
const tenantA = randomUUID();
const tenantB = randomUUID();
const locationOfController = new Map<string, string>();
/** The plugs the stand-in assets-service knows: controller uuid → plugs. */
const plugsOfController = new Map<string, { uuid: string; connector_id: number; evse_id: number }[]>();
/** How often the stand-in assets-service was asked for a controller's plugs. */
const plugLookups = new Map<string, number>();

async function receiver(...args: Parameters<typeof WebhookReceiver.start>): Promise<WebhookReceiver> {
  const started = await WebhookReceiver.start(...args);
  receivers.push(started);
  return started;
}

function call<T>(subject: string, payload: unknown, tenantUuid = tenantA): Promise<T> {
  return rig.call<T>(subject, payload, tenantUuid);
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

function subscribe(
  url: string,
  fields: Record<string, unknown> = {},
  tenantUuid = tenantA,
): Promise<CreatedWebhookSubscription> {
  return call(
    WebhookSubjects.create,
    { url, event_types: ['command.status_changed'], ...fields },
    tenantUuid,
  );
}

let commandClock = Date.parse('2026-01-01T00:00:00Z');

async function commandStatus(
  commandUuid: string,
  status: string,
  controllerUuid = randomUUID(),
  tenantUuid = tenantA,
): Promise<void> {
  commandClock += 1000;
  const occurredAt = new Date(commandClock).toISOString();
  const event = commandStatusChangedEvent({ tenantUuid, commandUuid, status, controllerUuid, occurredAt });
  await rig.eventBus.publish(CommandSubjects.statusChanged, event);
}

async function chargePointEvent(
  subject: string,
  data: Record<string, unknown>,
  occurredAt: string,
  tenantUuid = tenantA,
): Promise<void> {
  const event: EventEnvelope<unknown> = { eventId: randomUUID(), occurredAt, tenantUuid, data };
  await rig.eventBus.publish(subject, event);
}

/** Resolves once both durable consumers have handled (and acknowledged) every event published so far. */
async function allEventsHandled(): Promise<void> {
  const manager = await jetstreamManager(rig.connection);
  await eventually(
    () =>
      Promise.all(
        [COMMAND_STATUS_CONSUMER, CHARGE_POINT_EVENTS_CONSUMER].map((name) =>
          manager.consumers.info(EVENT_STREAM.name, name),
        ),
      ),
    (infos) => infos.every((info) => info.num_pending === 0 && info.num_ack_pending === 0),
  );
}

function deliveries(subscriptionUuid: string, tenantUuid = tenantA): Promise<WebhookDeliveryPage> {
  return call(WebhookSubjects.listDeliveries, { uuid: subscriptionUuid, page: 1, limit: 50 }, tenantUuid);
}

function serviceConfig(natsUrl: string, databaseUrl: string) {
  return webhookServiceTestConfig(
    { natsUrl, databaseUrl },
    { WEBHOOK_RESPONSE_TIMEOUT_MS: '500' },
    {
      firstRetryDelayMs: 200,
      maxRetryDelayMs: 400,
      failingDisableAfterMs: 3000,
      idlePollIntervalMs: 50,
      eventRetryDelayMs: 100,
      parkedEventPollIntervalMs: 100,
    },
  );
}

beforeAll(async () => {
  rig = await ServiceTestRig.start({
    migrate: (databaseUrl) => migrateServiceSchema(createWebhooksDataSource(databaseUrl)),
    beforeStart: (connection) => {
      serveAsNestService<{ uuid: string }>(connection, AssetsSubjects.getController, ({ payload }) => {
        const location = locationOfController.get(payload.uuid);
        return location ? { uuid: payload.uuid, location_uuid: location } : undefined;
      });
      serveAsNestService<{ filter: PlugFilter }>(connection, AssetsSubjects.listPlugs, ({ payload }) => {
        const { filter } = payload;
        const controller = filter.controller_uuid ?? '';
        plugLookups.set(controller, (plugLookups.get(controller) ?? 0) + 1);
        const items = (plugsOfController.get(filter.controller_uuid ?? '') ?? []).filter(
          (plug) =>
            (filter.connector_id === undefined || plug.connector_id === filter.connector_id) &&
            (filter.evse_id === undefined || plug.evse_id === filter.evse_id),
        );
        return { items, pagination: { page: 1, total_pages: 1, page_size: 50, has_more: false } };
      });
    },
    start: async ({ natsUrl, databaseUrl }) =>
      (replica = await startWebhookService(serviceConfig(natsUrl, databaseUrl))),
  });
  database = new pg.Client({ connectionString: rig.database.url });
  await database.connect();
});

afterAll(async () => {
  await Promise.all(receivers.map((started) => started.close()));
  await database?.end();
  await rig?.stop();
});

describe('subscriptions', () => {
  it('shows the secret at creation only, lists with the pagination object, and hides them from other tenants', async () => {
    const target = await receiver();
    const created = await subscribe(target.url, { controller_uuid: randomUUID() });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.subscription).toMatchObject({ url: target.url, enabled: true, disabled_reason: null });
    const read = await call<WebhookSubscriptionView>(WebhookSubjects.get, {
      uuid: created.subscription.uuid,
    });
    expect(read).toEqual(created.subscription);
    expect(JSON.stringify(read)).not.toContain(created.secret.slice('whsec_'.length));
    const stored = await database.query(
      'SELECT secret_ciphertext FROM webhooks.subscriptions WHERE uuid = $1',
      [created.subscription.uuid],
    );
    expect(stored.rows[0].secret_ciphertext).not.toContain(created.secret.slice('whsec_'.length));

    const page = await call<WebhookSubscriptionPage>(WebhookSubjects.list, { page: 1, limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.pagination).toMatchObject({ page: 1, page_size: 1 });

    const uuid = created.subscription.uuid;
    for (const [subject, payload] of [
      [WebhookSubjects.get, { uuid }],
      [WebhookSubjects.update, { uuid, changes: { enabled: false } }],
      [WebhookSubjects.rotateSecret, { uuid }],
      [WebhookSubjects.test, { uuid }],
      [WebhookSubjects.listDeliveries, { uuid, page: 1, limit: 10 }],
      [WebhookSubjects.delete, { uuid }],
    ] as const) {
      expect((await failure(call(subject, payload, tenantB))).code).toBe(ErrorCode.NotFound);
    }
    const empty = await call<WebhookSubscriptionPage>(WebhookSubjects.list, { page: 1, limit: 10 }, tenantB);
    expect(empty.items).toEqual([]);
  });

  it('refuses targets that resolve to private, loopback (outside the allow-list) or metadata addresses', async () => {
    for (const url of [
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://192.168.0.10/',
      'http://100.64.0.1/',
    ]) {
      const refused = await failure(subscribe(url));
      expect(refused.code).toBe(ErrorCode.ValidationFailed);
      expect(refused.issues).toEqual([
        expect.objectContaining({ parameter: 'url', errorKey: 'forbidden_target' }),
      ]);
    }
    const invalid = await failure(subscribe('ftp://example.com/', { event_types: ['nope'] }));
    expect(invalid.issues?.map((issue) => issue.parameter).sort()).toEqual(['event_types', 'url']);
  });
});

describe('deliveries', () => {
  it('delivers signed events that an independent implementation verifies, with the command as GET returns it', async () => {
    const target = await receiver();
    const { subscription, secret } = await subscribe(target.url);
    const commandUuid = randomUUID();
    await commandStatus(commandUuid, 'pending');
    await eventually(
      () => target.received.length,
      (count) => count === 1,
    );
    const [webhook] = target.received;
    const verified = new Webhook(secret).verify(webhook.body, webhook.headers) as Record<string, never>;
    expect(verified).toMatchObject({
      type: 'command.status_changed',
      data: { command: { command_uuid: commandUuid, status: 'pending' }, previous_status: null },
    });
    expect(webhook.headers['webhook-id']).toMatch(/^msg_/);
    const listed = await eventually(
      () => deliveries(subscription.uuid),
      (page) => page.items[0]?.status === 'delivered',
    );
    expect(listed.items[0]).toMatchObject({
      webhook_id: webhook.headers['webhook-id'],
      event_type: 'command.status_changed',
      attempts: 1,
      last_response_code: 204,
      next_attempt_at: null,
    });
  });

  it('retries after 500s and timeouts with the same webhook-id, and keeps one command in order', async () => {
    const attemptsOfFirst: number[] = [];
    const [slow, other] = [randomUUID(), randomUUID()];
    const target = await receiver((webhook) => {
      const { data } = JSON.parse(webhook.body) as {
        data: { command: { command_uuid: string; status: string } };
      };
      if (data.command.command_uuid === slow && data.command.status === 'sent') {
        attemptsOfFirst.push(Date.now());
        if (attemptsOfFirst.length === 1) return 500;
        if (attemptsOfFirst.length === 2) return 'hang';
      }
      return 200;
    });
    const { subscription, secret } = await subscribe(target.url);
    await commandStatus(slow, 'sent');
    await commandStatus(slow, 'accepted');
    await commandStatus(other, 'sent');
    await eventually(
      () => target.bodies().filter((body) => body.data.command !== undefined).length,
      (count) => count >= 5,
    );
    const slowOnes = target.received.filter((webhook) => webhook.body.includes(slow));
    expect(slowOnes.map((webhook) => JSON.parse(webhook.body).data.command.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'accepted',
    ]);
    expect(new Set(slowOnes.slice(0, 3).map((webhook) => webhook.headers['webhook-id'])).size).toBe(1);
    for (const webhook of target.received)
      expect(() => new Webhook(secret).verify(webhook.body, webhook.headers)).not.toThrow();
    // The other command did not wait for the failing one.
    const otherAt = target.received.find((webhook) => webhook.body.includes(other))!.at;
    expect(otherAt).toBeLessThan(slowOnes[2].at);
    const page = await eventually(
      () => deliveries(subscription.uuid),
      (listed) => listed.items.every((item) => item.status === 'delivered'),
    );
    expect(page.items.find((item) => item.attempts === 3)).toBeDefined();
  });

  it("sends a receiver's deliveries over one kept-alive connection", async () => {
    const target = await receiver();
    await subscribe(target.url);
    const command = randomUUID();
    for (const status of ['pending', 'sent', 'accepted']) await commandStatus(command, status);
    await eventually(
      () => target.received.length,
      (count) => count === 3,
    );
    expect(target.connections).toBe(1);
  });

  it('disables the subscription on 410 and says why', async () => {
    const target = await receiver(() => 410);
    const { subscription } = await subscribe(target.url);
    await commandStatus(randomUUID(), 'pending');
    const disabled = await eventually(
      () => call<WebhookSubscriptionView>(WebhookSubjects.get, { uuid: subscription.uuid }),
      (view) => !view.enabled,
    );
    expect(disabled.disabled_reason).toContain('410');
    const page = await deliveries(subscription.uuid);
    expect(page.items[0]).toMatchObject({ status: 'failed', last_response_code: 410 });
    // Enabling it again clears the reason; new events flow.
    target.answer = () => 200;
    const enabled = await call<WebhookSubscriptionView>(WebhookSubjects.update, {
      uuid: subscription.uuid,
      changes: { enabled: true },
    });
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null });
    await commandStatus(randomUUID(), 'pending');
    await eventually(
      () => target.received.length,
      (count) => count === 2,
    );
  });

  it('disables a subscription that keeps failing, with the last error, and a retry sends a failed delivery again', async () => {
    const target = await receiver(() => 503);
    const { subscription } = await subscribe(target.url);
    await commandStatus(randomUUID(), 'pending');
    const disabled = await eventually(
      () => call<WebhookSubscriptionView>(WebhookSubjects.get, { uuid: subscription.uuid }),
      (view) => !view.enabled,
    );
    expect(disabled.disabled_reason).toMatch(/deliveries failing since .*HTTP 503/);
    expect(target.received.length).toBeGreaterThan(2);
    target.answer = () => 200;
    await call(WebhookSubjects.update, { uuid: subscription.uuid, changes: { enabled: true } });
    const [failed] = (await deliveries(subscription.uuid)).items;
    expect(failed.status).toBe('failed');
    const retried = await call<WebhookDeliveryView>(WebhookSubjects.retryDelivery, {
      uuid: subscription.uuid,
      deliveryId: failed.id,
    });
    expect(retried.status).toBe('pending');
    await eventually(
      () => deliveries(subscription.uuid),
      (page) => page.items[0].status === 'delivered',
    );
  });

  it('signs with the old and the new secret after a rotation', async () => {
    const target = await receiver();
    const { subscription, secret: old } = await subscribe(target.url);
    const rotated = await call<CreatedWebhookSubscription>(WebhookSubjects.rotateSecret, {
      uuid: subscription.uuid,
    });
    expect(rotated.secret).not.toBe(old);
    expect(rotated.subscription.previous_secret_expires_at).not.toBeNull();
    const ping = await call<WebhookDeliveryView>(WebhookSubjects.test, { uuid: subscription.uuid });
    expect(ping).toMatchObject({ event_type: 'ping', status: 'pending' });
    await eventually(
      () => target.received.length,
      (count) => count === 1,
    );
    const [webhook] = target.received;
    expect(webhook.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(webhook.body, webhook.headers)).toMatchObject({ type: 'ping' });
    expect(new Webhook(rotated.secret).verify(webhook.body, webhook.headers)).toMatchObject({ type: 'ping' });
  });

  it('refuses at delivery a target that now resolves to a forbidden address', async () => {
    const target = await receiver();
    const { subscription } = await subscribe(target.url);
    // As if the name had been re-pointed after the subscription was checked.
    await database.query(`UPDATE webhooks.subscriptions SET url = $2 WHERE uuid = $1`, [
      subscription.uuid,
      target.url.replace('127.0.0.1', '[::1]'),
    ]);
    await call(WebhookSubjects.test, { uuid: subscription.uuid });
    const page = await eventually(
      () => deliveries(subscription.uuid),
      (listed) => listed.items[0]?.attempts >= 1 && listed.items[0].last_error !== null,
    );
    expect(page.items[0].last_error).toMatch(/^refused: .*loopback/);
    expect(target.received).toHaveLength(0);
  });

  it('sends charge point events by controller and location filter, charging_session.updated at most once a minute', async () => {
    const target = await receiver();
    const [controller, elsewhere, location, plug] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    locationOfController.set(controller, location);
    plugsOfController.set(controller, [{ uuid: plug, connector_id: 1, evse_id: 1 }]);
    locationOfController.set(elsewhere, randomUUID());
    await subscribe(target.url, {
      event_types: [
        'controller.connection_changed',
        'plug.status_changed',
        'charging_session.started',
        'charging_session.updated',
        'charging_session.ended',
      ],
      location_uuid: location,
    });
    const ref = (uuid: string) => ({ controllerUuid: uuid, ocppIdentity: `CP-${uuid.slice(0, 4)}` });
    const at = (second: number) => new Date(Date.parse('2026-02-01T10:00:00Z') + second * 1000).toISOString();
    await chargePointEvent(
      ChargePointEventSubjects.connected,
      { ...ref(controller), protocol: 'ocpp1.6', gatewayInstance: 'a', connectedAt: at(0) },
      at(0),
    );
    await chargePointEvent(
      ChargePointEventSubjects.connected,
      { ...ref(elsewhere), protocol: 'ocpp1.6', gatewayInstance: 'a', connectedAt: at(0) },
      at(0),
    );
    await chargePointEvent(
      ChargePointEventSubjects.connectorStatus,
      {
        ...ref(controller),
        connectorId: 1,
        evseId: null,
        status: 'Charging',
        errorCode: 'NoError',
        reportedAt: at(1),
      },
      at(1),
    );
    const transaction = { ...ref(controller), transactionId: '42' };
    await chargePointEvent(
      ChargePointEventSubjects.transactionStarted,
      { ...transaction, connectorId: 1, evseId: null, idTag: 'T', meterStartWh: 0, startedAt: at(2) },
      at(2),
    );
    for (const second of [10, 30, 50, 75]) {
      await chargePointEvent(
        ChargePointEventSubjects.transactionUpdated,
        { ...transaction, meterWh: second, sampledAt: at(second) },
        at(second),
      );
    }
    await chargePointEvent(
      ChargePointEventSubjects.transactionEnded,
      { ...transaction, meterStopWh: 100, stoppedAt: at(80), reason: 'Local' },
      at(80),
    );
    await eventually(
      () => target.bodies().map((body) => body.type),
      (types) => types.includes('charging_session.ended'),
    );
    const bodies = target.bodies();
    expect(bodies.map((body) => body.type)).toEqual([
      'controller.connection_changed',
      'plug.status_changed',
      'charging_session.started',
      'charging_session.updated',
      'charging_session.updated',
      'charging_session.ended',
    ]);
    expect(bodies[0].data).toMatchObject({ controller_uuid: controller, connection_status: 'online' });
    // The platform's uuids beside the OCPP ids: the plug's (assets-service), the session's (command-service).
    expect(bodies[1].data).toMatchObject({ plug_uuid: plug, connector_id: 1, status: 'Charging' });
    const session = chargingSessionUuidOf(tenantA, controller, '42');
    expect(bodies[2].data).toMatchObject({
      charging_session_uuid: session,
      plug_uuid: plug,
      connector_id: 1,
    });
    for (const body of bodies.slice(3)) expect(body.data.charging_session_uuid).toBe(session);
    expect(
      bodies.filter((body) => body.type === 'charging_session.updated').map((body) => body.data.meter_wh),
    ).toEqual([10, 75]);
  });
});

describe('an event whose fan-out fails every time', () => {
  it('is parked: other subjects flow at once, its own subject after it failed for good', async () => {
    const target = await receiver();
    await subscribe(target.url, {
      event_types: ['command.status_changed', 'controller.connection_changed', 'charging_session.updated'],
    });
    const [stuck, other, command] = [randomUUID(), randomUUID(), randomUUID()];
    const at = '2026-03-01T10:00:00.000Z';
    const connected = (controllerUuid: string) =>
      chargePointEvent(
        ChargePointEventSubjects.connected,
        { controllerUuid, ocppIdentity: 'CP-P', protocol: 'ocpp1.6', gatewayInstance: 'a', connectedAt: at },
        at,
      );
    // A transaction id longer than the session throttle's column: this event's rows can never be written.
    await chargePointEvent(
      ChargePointEventSubjects.transactionUpdated,
      {
        controllerUuid: stuck,
        ocppIdentity: 'CP-P',
        transactionId: 'x'.repeat(150),
        meterWh: 1,
        sampledAt: at,
      },
      at,
    );
    await connected(stuck);
    await connected(other);
    await commandStatus(command, 'pending');
    const controllerOf = (body: { data: Record<string, unknown> }) => body.data.controller_uuid;
    await eventually(
      () => target.bodies(),
      (bodies) => bodies.some((body) => controllerOf(body) === other) && bodies.some((b) => b.data.command),
    );
    // The stuck controller's later event waits behind the parked one until it failed for good.
    const [parked] = (
      await eventually(
        () =>
          database.query(
            `SELECT status, last_error, failed_at FROM webhooks.parked_events WHERE ordering_key = $1`,
            [`controller:${stuck}`],
          ),
        (result) => result.rows[0]?.status === 'failed',
      )
    ).rows;
    expect(parked.last_error).toMatch(/too long/);
    await eventually(
      () => target.received.find((webhook) => webhook.body.includes(stuck)),
      (webhook) => webhook !== undefined,
    );
    const stuckOnes = target.bodies().filter((body) => controllerOf(body) === stuck);
    expect(stuckOnes.map((body) => body.type)).toEqual(['controller.connection_changed']);
    const arrived = target.received.find((webhook) => webhook.body.includes(stuck))!.at;
    expect(arrived).toBeGreaterThanOrEqual((parked.failed_at as Date).getTime());
  });
});

describe('several replicas', () => {
  it('keeps each command in order while two replicas share the consumers and the delivery rows', async () => {
    const second = await startWebhookService(serviceConfig(rig.nats.url, rig.database.url));
    try {
      const target = await receiver((_webhook, index) => (index % 7 === 3 ? 500 : 200));
      await subscribe(target.url);
      const commands = [randomUUID(), randomUUID(), randomUUID()];
      const statuses = ['pending', 'sent', 'accepted', 'succeeded', 'expired', 'failed'];
      for (const status of statuses) {
        await Promise.all(commands.map((command) => commandStatus(command, status)));
      }
      const deliveredOf = (command: string) =>
        target
          .bodies()
          .filter((body) => (body.data.command as { command_uuid: string }).command_uuid === command)
          .map((body) => (body.data.command as { status: string }).status);
      await eventually(
        () => commands.map((command) => new Set(deliveredOf(command)).size),
        (counts) => counts.every((count) => count === statuses.length),
      );
      for (const command of commands) {
        // Retried ones repeat, but no status arrives before an earlier one did.
        const firsts = [...new Set(deliveredOf(command))];
        expect(firsts).toEqual(statuses);
      }
    } finally {
      await second.app.close();
    }
  });
});

describe('command events in batches', () => {
  it('writes a batch in one go, once however often it comes, in stream order per command', async () => {
    const tenant = randomUUID();
    const target = await receiver();
    const { subscription } = await subscribe(target.url, {}, tenant);
    const commands = [randomUUID(), randomUUID(), randomUUID()];
    const statuses = ['pending', 'sent', 'accepted', 'succeeded'];
    // Published at once: the consumer takes them in batches of whatever has arrived.
    await Promise.all(
      statuses.flatMap((status, index) =>
        commands.map(async (command) => {
          await new Promise((resolve) => setTimeout(resolve, index * 5));
          await commandStatus(command, status, randomUUID(), tenant);
        }),
      ),
    );
    await eventually(
      () => target.received.length,
      (count) => count === commands.length * statuses.length,
    );
    for (const command of commands) {
      const sent = target
        .bodies()
        .filter((body) => (body.data.command as { command_uuid: string }).command_uuid === command)
        .map((body) => (body.data.command as { status: string }).status);
      expect(sent).toEqual(statuses);
    }
    // The same batch again (a redelivery): no row twice.
    const consumer = replica.app.get(WebhookEventsConsumer);
    const again = commands.map((command, index) => ({
      subject: CommandSubjects.statusChanged,
      event: commandStatusChangedEvent({
        tenantUuid: tenant,
        commandUuid: command,
        status: 'failed',
        controllerUuid: randomUUID(),
      }),
      position: { streamSequence: 1_000_000_000 + index, deliveryCount: 1 },
    }));
    await consumer.handleBatch(again);
    await consumer.handleBatch(again);
    const rows = await database.query(
      'SELECT event_id, count(*)::int AS n FROM webhooks.deliveries WHERE subscription_uuid = $1 GROUP BY event_id',
      [subscription.uuid],
    );
    expect(rows.rows).toHaveLength(commands.length * (statuses.length + 1));
    expect(rows.rows.every((row: { n: number }) => row.n === 1)).toBe(true);
  });

  it("sends a location-filtered subscription the commands of its location's controllers only", async () => {
    const tenant = randomUUID();
    const [inside, outside, location] = [randomUUID(), randomUUID(), randomUUID()];
    locationOfController.set(inside, location);
    locationOfController.set(outside, randomUUID());
    const target = await receiver();
    await subscribe(target.url, { location_uuid: location }, tenant);
    const [mine, theirs] = [randomUUID(), randomUUID()];
    await Promise.all([
      commandStatus(theirs, 'pending', outside, tenant),
      commandStatus(mine, 'pending', inside, tenant),
    ]);
    await commandStatus(mine, 'sent', inside, tenant);
    await eventually(
      () => target.received.length,
      (count) => count === 2,
    );
    await allEventsHandled();
    expect(
      target.bodies().map((body) => (body.data.command as { command_uuid: string }).command_uuid),
    ).toEqual([mine, mine]);
  });

  it('parks the one event of a batch that cannot be stored, and writes the others', async () => {
    const tenant = randomUUID();
    const target = await receiver();
    const { subscription } = await subscribe(target.url, {}, tenant);
    const consumer = replica.app.get(WebhookEventsConsumer);
    const event = (eventId: string = randomUUID()) => ({
      ...commandStatusChangedEvent({
        tenantUuid: tenant,
        commandUuid: randomUUID(),
        status: 'pending',
        controllerUuid: randomUUID(),
      }),
      eventId,
    });
    // An event id longer than the column: its rows can never be written.
    const batch = [event(), event('x'.repeat(150)), event()].map((built, index) => ({
      subject: CommandSubjects.statusChanged,
      event: built,
      position: { streamSequence: 2_000_000_000 + index, deliveryCount: 1 },
    }));
    // Before its last attempt the batch fails as a whole (redelivered)…
    await expect(consumer.handleBatch(batch)).rejects.toThrow(/too long/);
    // …at its last attempt the one is parked and the others go on.
    const last = WEBHOOK_SERVICE_TUNING.eventAttemptsBeforeParking;
    await consumer.handleBatch(
      batch.map((one) => ({ ...one, position: { ...one.position, deliveryCount: last } })),
    );
    const rows = await database.query(
      'SELECT event_id FROM webhooks.deliveries WHERE subscription_uuid = $1',
      [subscription.uuid],
    );
    expect(rows.rows.map((row: { event_id: string }) => row.event_id).sort()).toEqual(
      [batch[0].event.eventId, batch[2].event.eventId].sort(),
    );
    const parked = await database.query(
      'SELECT status FROM webhooks.parked_events WHERE stream_seq = $1',
      [2_000_000_001],
    );
    expect(parked.rows).toEqual([{ status: 'pending' }]);
  });
});

describe('the index of enabled subscriptions', () => {
  const index = (service: RunningService = replica) => service.app.get(SubscriptionIndex);
  const controllerFilter = (uuid: string) => ({ controllerUuid: uuid, ocppIdentity: 'CP-I' });

  it('costs an event that no subscription wants nothing: no look-up, no throttle row, no row for a later one', async () => {
    const tenant = randomUUID();
    const controller = randomUUID();
    plugsOfController.set(controller, [{ uuid: randomUUID(), connector_id: 1, evse_id: 1 }]);
    const at = '2026-04-01T10:00:00.000Z';
    const plugStatus = () =>
      chargePointEvent(
        ChargePointEventSubjects.connectorStatus,
        {
          ...controllerFilter(controller),
          connectorId: 1,
          evseId: null,
          status: 'Available',
          reportedAt: at,
        },
        at,
        tenant,
      );
    // Another tenant's subscription wants all of these: only its own tenant counts.
    const elsewhere = await receiver();
    await subscribe(elsewhere.url, { event_types: ['plug.status_changed', 'charging_session.updated'] });
    const before = randomUUID();
    await commandStatus(before, 'pending', controller, tenant);
    await plugStatus();
    await chargePointEvent(
      ChargePointEventSubjects.transactionUpdated,
      { ...controllerFilter(controller), transactionId: '7', meterWh: 1, sampledAt: at },
      at,
      tenant,
    );
    await allEventsHandled();
    expect(plugLookups.get(controller)).toBeUndefined();
    const throttled = await database.query('SELECT 1 FROM webhooks.session_updates WHERE tenant_uuid = $1', [
      tenant,
    ]);
    expect(throttled.rowCount).toBe(0);

    const target = await receiver();
    await subscribe(target.url, { event_types: ['command.status_changed', 'plug.status_changed'] }, tenant);
    const after = randomUUID();
    await commandStatus(after, 'pending', controller, tenant);
    await plugStatus();
    await eventually(
      () => target.bodies(),
      (bodies) => bodies.length === 2,
    );
    await allEventsHandled();
    const bodies = target.bodies();
    expect(bodies.map((body) => body.type).sort()).toEqual(['command.status_changed', 'plug.status_changed']);
    expect(JSON.stringify(bodies)).not.toContain(before);
    expect(plugLookups.get(controller)).toBe(1);
  });

  it('honours a subscription made through another replica once its notice arrived', async () => {
    const second = await startWebhookService(serviceConfig(rig.nats.url, rig.database.url));
    const tenant = randomUUID();
    const target = await receiver();
    try {
      const created = await second.app
        .get(SubscriptionsService)
        .create(tenant, { url: target.url, event_types: ['command.status_changed'], enabled: false });
      expect(index(second).couldMatch(tenant, 'command.status_changed', randomUUID())).toBe(false);
      await second.app.get(SubscriptionsService).update(tenant, created.subscription.uuid, { enabled: true });
      // On the replica that answered: before the answer.
      expect(index(second).couldMatch(tenant, 'command.status_changed', randomUUID())).toBe(true);
      // On the other one: by the notice (its full reload is 30 s away).
      await eventually(
        () => index().couldMatch(tenant, 'command.status_changed', randomUUID()),
        (known) => known,
        { timeoutMs: 5000, intervalMs: 10 },
      );
    } finally {
      await second.app.close();
    }
    // Only the first replica consumes now.
    await commandStatus(randomUUID(), 'pending', randomUUID(), tenant);
    await eventually(
      () => target.received.length,
      (count) => count === 1,
    );
  });

  it('forgets a subscription that a 410 disabled, and honours a filter by controller', async () => {
    const tenant = randomUUID();
    const [controller, other] = [randomUUID(), randomUUID()];
    const target = await receiver(() => 410);
    const { subscription } = await subscribe(target.url, { controller_uuid: controller }, tenant);
    expect(index().couldMatch(tenant, 'command.status_changed', controller)).toBe(true);
    expect(index().couldMatch(tenant, 'command.status_changed', other)).toBe(false);
    expect(index().couldMatch(tenant, 'plug.status_changed', controller)).toBe(false);
    await commandStatus(randomUUID(), 'pending', controller, tenant);
    await eventually(
      () => call<WebhookSubscriptionView>(WebhookSubjects.get, { uuid: subscription.uuid }, tenant),
      (view) => !view.enabled,
    );
    await eventually(
      () => index().couldMatch(tenant, 'command.status_changed', controller),
      (known) => !known,
    );
  });

  it('runs the fan-out for every event while the index cannot be read, and reads it again', async () => {
    const tenant = randomUUID();
    const target = await receiver();
    const { subscription } = await subscribe(target.url, { enabled: false }, tenant);
    const pool = (replica.app.get(DataSource).driver as unknown as { master: Pool }).master;
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    // The index's full reload fails; every other statement runs as usual.
    const failIndexReads = (...args: unknown[]): Promise<unknown> => {
      const [statement] = args as [{ text?: string } | undefined];
      if (statement?.text === enabledSubscriptions.text) return Promise.reject(new Error('database away'));
      return query(...args);
    };
    // An own property over the prototype's method, deleted again below.
    Object.assign(pool, { query: failIndexReads });
    try {
      await index().reload();
      expect(index().loaded).toBe(false);
      // Enabled behind the service's back: no notice, and the index cannot be read.
      await database.query('UPDATE webhooks.subscriptions SET enabled = true WHERE uuid = $1', [
        subscription.uuid,
      ]);
      await commandStatus(randomUUID(), 'pending', randomUUID(), tenant);
      await eventually(
        () => target.received.length,
        (count) => count === 1,
      );
    } finally {
      Reflect.deleteProperty(pool, 'query');
    }
    await eventually(
      () => index().loaded,
      (loaded) => loaded,
    );
    expect(index().couldMatch(tenant, 'command.status_changed', randomUUID())).toBe(true);
  });

  it('tells who listens of a subscription a full reload finds no longer enabled', async () => {
    const tenant = randomUUID();
    const target = await receiver();
    const { subscription } = await subscribe(target.url, {}, tenant);
    const noLongerEnabled: string[] = [];
    index().onNoLongerEnabled((uuid) => noLongerEnabled.push(uuid));
    // Disabled behind the service's back, as if its notice had been lost.
    await database.query('UPDATE webhooks.subscriptions SET enabled = false WHERE uuid = $1', [
      subscription.uuid,
    ]);
    const told = () => noLongerEnabled.filter((uuid) => uuid === subscription.uuid).length;
    await index().reload();
    expect(told()).toBe(1);
    // Once: the next reload does not find it enabled before either.
    await index().reload();
    expect(told()).toBe(1);
  });

  it('reads every subscription again when the NATS connection is back (notices may have been lost meanwhile)', async () => {
    const tenant = randomUUID();
    const target = await receiver();
    const { subscription } = await subscribe(target.url, { enabled: false }, tenant);
    // Enabled behind the service's back, as if its notice had been lost.
    await database.query('UPDATE webhooks.subscriptions SET enabled = true WHERE uuid = $1', [
      subscription.uuid,
    ]);
    expect(index().couldMatch(tenant, 'command.status_changed', randomUUID())).toBe(false);
    await rig.nats.kill();
    await rig.nats.restart();
    // Its full reload is 30 s away.
    await eventually(
      () => index().couldMatch(tenant, 'command.status_changed', randomUUID()),
      (known) => known,
    );
  });
});
