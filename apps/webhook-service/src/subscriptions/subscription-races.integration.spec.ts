import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { CreatedWebhookSubscription } from '@cpc/contracts';
import { migrateServiceSchema, runStatement } from '@cpc/database';
import { NotFoundError } from '@cpc/errors';
import { eventually, lockWaiters, openSession, outcome, ServiceTestRig, WebhookReceiver } from '@cpc/testing';
import type { RunningService } from '@cpc/service-runtime';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { createWebhooksDataSource } from '../data-source.js';
import { recordOutcomes } from '../repositories/deliveries.repository.js';
import { startWebhookService } from '../start-webhook-service.js';
import { webhookServiceTestConfig } from '../testing/webhook-service-test-config.js';
import { SubscriptionsService } from './subscriptions.service.js';

jest.setTimeout(60_000);

/**
 * Subscriptions under concurrency, on a real PostgreSQL database and NATS, with the service's delivery worker running:
 * races forced by a second session's locks (the change waits, the spec sees it wait, then lets go), and tenancy of
 * every route.
 */
describe('webhook subscriptions under concurrency', () => {
  let rig: ServiceTestRig;
  let dataSource: DataSource;
  let subscriptions: SubscriptionsService;
  /** Answers 204 to everything. */
  let receiver: WebhookReceiver;
  /** Answers 500 to everything. */
  let failingReceiver: WebhookReceiver;

  const newTenant = () => randomUUID();
  const subscribe = (tenantUuid: string, url = receiver.url): Promise<CreatedWebhookSubscription> =>
    subscriptions.create(tenantUuid, { url, event_types: ['command.status_changed'] });
  const subscriptionRow = async (uuid: string) => {
    const [row] = await dataSource.query<
      { enabled: boolean; disabled_reason: string | null; failing_since: Date | null }[]
    >(`SELECT enabled, disabled_reason, failing_since FROM webhooks.subscriptions WHERE uuid = $1`, [uuid]);
    return row;
  };
  const deliveryCount = async (subscriptionUuid: string): Promise<number> => {
    const [{ count }] = await dataSource.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM webhooks.deliveries WHERE subscription_uuid = $1`,
      [subscriptionUuid],
    );
    return count;
  };

  beforeAll(async () => {
    rig = await ServiceTestRig.start({
      migrate: (databaseUrl) => migrateServiceSchema(createWebhooksDataSource(databaseUrl)),
      start: ({ natsUrl, databaseUrl }) =>
        startWebhookService(
          webhookServiceTestConfig({ natsUrl, databaseUrl }, {}, { idlePollIntervalMs: 50 }),
        ),
    });
    dataSource = createWebhooksDataSource(rig.database.url);
    await dataSource.initialize();
    subscriptions = (rig.service as RunningService).app.get(SubscriptionsService);
    receiver = await WebhookReceiver.start(() => 204);
    failingReceiver = await WebhookReceiver.start(() => 500);
  });

  afterAll(async () => {
    await receiver?.close();
    await failingReceiver?.close();
    await dataSource?.destroy();
    await rig?.stop();
  });

  describe('tenancy', () => {
    it("answers 404 for every route on another tenant's subscription and changes nothing", async () => {
      const owner = newTenant();
      const other = newTenant();
      const { subscription } = await subscribe(owner);
      const ping = await subscriptions.test(owner, subscription.uuid);
      const before = await subscriptionRow(subscription.uuid);

      const attempts: Promise<unknown>[] = [
        subscriptions.get(other, subscription.uuid),
        subscriptions.update(other, subscription.uuid, { enabled: false }),
        subscriptions.rotateSecret(other, subscription.uuid),
        subscriptions.test(other, subscription.uuid),
        subscriptions.listDeliveries(other, { uuid: subscription.uuid, limit: 10, page: 1 }),
        subscriptions.retryDelivery(other, subscription.uuid, ping.id),
        subscriptions.delete(other, subscription.uuid),
      ];
      for (const attempt of attempts) expect((await outcome(attempt)).error).toBeInstanceOf(NotFoundError);

      expect(await subscriptionRow(subscription.uuid)).toEqual(before);
      expect((await subscriptions.list(other, { limit: 10, page: 1 })).items).toEqual([]);
      // Only the owner's own ping: the other tenant's :test queued nothing.
      expect(await deliveryCount(subscription.uuid)).toBe(1);
    });
  });

  describe('a change racing a DELETE', () => {
    // `:test` reads the subscription, then inserts the ping, whose foreign key check waits for a DELETE in flight and
    // then finds it gone: answered 404, as if it had been gone already.
    it(':test racing a DELETE of its subscription answers 404', async () => {
      const tenant = newTenant();
      const { subscription } = await subscribe(tenant);
      const session = await openSession(dataSource);
      try {
        await session.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [subscription.uuid]);
        const pinged = outcome(subscriptions.test(tenant, subscription.uuid));
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        const { error } = await pinged;
        expect(error).toBeInstanceOf(NotFoundError);
      } finally {
        await session.release();
      }
    });

    it(':retry racing a DELETE of its subscription answers 404 and leaves nothing behind', async () => {
      const tenant = newTenant();
      const { subscription } = await subscribe(tenant);
      const ping = await subscriptions.test(tenant, subscription.uuid);
      await eventually(
        () =>
          dataSource.query<{ status: string }[]>(`SELECT status FROM webhooks.deliveries WHERE id = $1`, [
            ping.id,
          ]),
        ([row]) => row?.status === 'delivered',
      );
      const session = await openSession(dataSource);
      try {
        await session.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [subscription.uuid]);
        const retried = outcome(subscriptions.retryDelivery(tenant, subscription.uuid, ping.id));
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        expect((await retried).error).toBeInstanceOf(NotFoundError);
      } finally {
        await session.release();
      }
      expect(await deliveryCount(subscription.uuid)).toBe(0);
    });

    it(':rotate-secret racing a DELETE answers 404', async () => {
      const tenant = newTenant();
      const { subscription } = await subscribe(tenant);
      const session = await openSession(dataSource);
      try {
        await session.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [subscription.uuid]);
        const rotated = outcome(subscriptions.rotateSecret(tenant, subscription.uuid));
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        expect((await rotated).error).toBeInstanceOf(NotFoundError);
      } finally {
        await session.release();
      }
      expect(await subscriptionRow(subscription.uuid)).toBeUndefined();
    });

    it('PATCH racing a DELETE answers 404 and recreates nothing', async () => {
      const tenant = newTenant();
      const { subscription } = await subscribe(tenant);
      const session = await openSession(dataSource);
      try {
        await session.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [subscription.uuid]);
        const patched = outcome(subscriptions.update(tenant, subscription.uuid, { enabled: false }));
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        expect((await patched).error).toBeInstanceOf(NotFoundError);
      } finally {
        await session.release();
      }
      expect(await subscriptionRow(subscription.uuid)).toBeUndefined();
    });
  });

  describe('two rotations at once', () => {
    it('both answered secrets sign the next delivery, the later answered one first', async () => {
      const tenant = newTenant();
      const { subscription, secret: original } = await subscribe(tenant);
      const session = await openSession(dataSource);
      let first: CreatedWebhookSubscription;
      let second: CreatedWebhookSubscription;
      try {
        await session.query(`SELECT 1 FROM webhooks.subscriptions WHERE uuid = $1 FOR UPDATE`, [
          subscription.uuid,
        ]);
        const one = subscriptions.rotateSecret(tenant, subscription.uuid);
        await lockWaiters(dataSource, 1);
        const two = subscriptions.rotateSecret(tenant, subscription.uuid);
        await lockWaiters(dataSource, 2);
        await session.commitTransaction();
        [first, second] = await Promise.all([one, two]);
      } finally {
        await session.release();
      }
      expect(first.secret).not.toBe(second.secret);
      expect(second.subscription.previous_secret_expires_at).not.toBeNull();

      const received = receiver.received.length;
      const ping = await subscriptions.test(tenant, subscription.uuid);
      const webhook = await eventually(
        () =>
          receiver.received.slice(received).find((each) => each.headers['webhook-id'] === `msg_${ping.id}`),
        (found) => found !== undefined,
      );
      const signatures = webhook!.headers['webhook-signature'].split(' ');
      expect(signatures).toHaveLength(2);
      // Whichever rotation committed last holds the current secret, the other the previous one: both verify.
      for (const { secret } of [first, second]) {
        expect(new Webhook(secret).verify(webhook!.body, webhook!.headers)).toMatchObject({ type: 'ping' });
      }
      // The secret from before both rotations signs no more: the second rotation took the previous slot at once.
      expect(() => new Webhook(original).verify(webhook!.body, webhook!.headers)).toThrow();
    });
  });

  describe('the 24-hour auto-disable', () => {
    // The worker decides to disable from the streak its outcome returned; the disable statement checks it again
    // behind the subscription's lock, so a success recorded meanwhile (another replica, another queue) wins.
    it('does not disable a subscription whose streak a success ended meanwhile', async () => {
      const tenant = newTenant();
      const { subscription } = await subscribe(tenant, failingReceiver.url);
      // Failing for 25 hours, and a second queue's delivery due later, which "another replica" is delivering.
      await dataSource.query(
        `UPDATE webhooks.subscriptions SET failing_since = now() - interval '25 hours' WHERE uuid = $1`,
        [subscription.uuid],
      );
      const other = randomUUID();
      await dataSource.query(
        `INSERT INTO webhooks.deliveries
                (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, body, next_attempt_at)
         VALUES ($1, $2, $3, $4, 'ping', $5, '{}', now() + interval '1 hour')`,
        [other, tenant, subscription.uuid, `ping-${other}`, `ping:${other}`],
      );
      const session = await openSession(dataSource);
      try {
        await session.query(`SELECT 1 FROM webhooks.deliveries WHERE id = $1 FOR UPDATE`, [other]);
        // The worker sends the ping, the receiver answers 500, the worker reads the 25-hour streak and disables: its
        // statement waits for the row the session holds.
        await subscriptions.test(tenant, subscription.uuid);
        await lockWaiters(dataSource, 1);
        // Meanwhile the other delivery succeeds: the streak ends.
        await runStatement(session.manager, recordOutcomes, {
          outcomes: JSON.stringify([
            { id: other, attempts: 0, delivered: true, status_code: 204, error: null, next_attempt_at: null },
          ]),
        });
        await session.commitTransaction();
      } finally {
        await session.release();
      }
      // The worker's disable statement has run to its end.
      await eventually(
        () =>
          dataSource.query<{ running: number }[]>(
            `SELECT count(*)::int AS running FROM pg_stat_activity
              WHERE datname = current_database() AND state = 'active' AND query LIKE '%SET enabled = false%'
                AND pid <> pg_backend_pid()`,
          ),
        ([{ running }]) => running === 0,
      );
      expect(await subscriptionRow(subscription.uuid)).toEqual({
        enabled: true,
        disabled_reason: null,
        failing_since: null,
      });
    });
  });
});
