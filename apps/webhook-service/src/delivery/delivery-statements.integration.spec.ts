import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CommandSubjects, type CreatedWebhookSubscription, WebhookSubjects } from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import type { RunningService } from '@cpc/service-runtime';
import { commandStatusChangedEvent, eventually, ServiceTestRig, WebhookReceiver } from '@cpc/testing';
import pg, { type Pool, type PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { createWebhooksDataSource } from '../data-source.js';
import { claimDueDeliveries, fanOutEvents, recordOutcomes } from '../repositories/deliveries.repository.js';
import { startWebhookService } from '../start-webhook-service.js';
import { webhookServiceTestConfig } from '../testing/webhook-service-test-config.js';

jest.setTimeout(90_000);

/**
 * What PostgreSQL does per delivery: every statement webhook-service sends while a burst of command status changes is
 * delivered to a healthy receiver, counted on its pool's connections (each statement there is one round trip, and
 * outside a transaction one commit). Neither the fan-outs nor the claims nor the outcomes follow the deliveries one
 * for one: each kind is grouped.
 */

type StatementKind = 'fanOut' | 'claim' | 'outcomes' | 'other';

const KIND_OF_TEXT = new Map<string, StatementKind>([
  [fanOutEvents.text, 'fanOut'],
  [claimDueDeliveries.text, 'claim'],
  [recordOutcomes.text, 'outcomes'],
]);

/** Counts the statements sent over the connections of `dataSource`'s pool, by kind, from now on. */
function countStatements(dataSource: DataSource): Record<StatementKind, number> {
  const counts: Record<StatementKind, number> = { fanOut: 0, claim: 0, outcomes: 0, other: 0 };
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const counted = new WeakSet<PoolClient>();
  const count = (client: PoolClient) => {
    if (counted.has(client)) return;
    counted.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text: string }).text;
      counts[KIND_OF_TEXT.get(text) ?? 'other'] += 1;
      return query(...args);
    };
  };
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    const [callback] = args;
    if (typeof callback === 'function') {
      return connect((error: unknown, client: PoolClient, release: unknown) => {
        if (client) count(client);
        (callback as (...a: unknown[]) => void)(error, client, release);
      });
    }
    return (connect() as Promise<PoolClient>).then((client) => {
      count(client);
      return client;
    });
  };
  return counts;
}

let rig: ServiceTestRig;
let service: RunningService;
let database: pg.Client;
const tenant = randomUUID();

beforeAll(async () => {
  rig = await ServiceTestRig.start({
    migrate: (databaseUrl) => migrateServiceSchema(createWebhooksDataSource(databaseUrl)),
    start: async ({ natsUrl, databaseUrl }) =>
      (service = await startWebhookService(
        // An event is parked when its first fan-out fails: one that failed with another's would show at once.
        webhookServiceTestConfig(natsUrl, databaseUrl, { tuning: { eventAttemptsBeforeParking: 1 } }),
      )),
  });
  database = new pg.Client({ connectionString: rig.database.url });
  await database.connect();
});

afterAll(async () => {
  await database?.end();
  await rig?.stop();
});

/** A receiver on loopback, subscribed to command status changes. */
async function subscribedReceiver(): Promise<WebhookReceiver> {
  const target = await WebhookReceiver.start();
  await rig.call<CreatedWebhookSubscription>(
    WebhookSubjects.create,
    { url: target.url, event_types: ['command.status_changed'] },
    tenant,
  );
  return target;
}

describe('the statements of a burst of deliveries', () => {
  it('are grouped: fan-outs, claims and outcomes each a fraction of one per delivery', async () => {
    const target = await subscribedReceiver();
    try {
      const counts = countStatements(service.app.get(DataSource));
      const commands = Array.from({ length: 100 }, () => randomUUID());
      const statuses = ['pending', 'sent', 'accepted'];
      for (const status of statuses) {
        await Promise.all(
          commands.map((commandUuid) =>
            rig.eventBus.publish(
              CommandSubjects.statusChanged,
              commandStatusChangedEvent({
                tenantUuid: tenant,
                commandUuid,
                status,
                controllerUuid: randomUUID(),
              }),
            ),
          ),
        );
      }
      const deliveries = commands.length * statuses.length;
      await eventually(
        () => target.received.length,
        (received) => received >= deliveries,
        { timeoutMs: 60_000 },
      );
      const perDelivery = (n: number) => Math.round((n / deliveries) * 1000) / 1000;
      const figures = {
        deliveries,
        statements: counts.fanOut + counts.claim + counts.outcomes + counts.other,
        ...counts,
        claimsPerDelivery: perDelivery(counts.claim),
        statementsPerDelivery: perDelivery(counts.fanOut + counts.claim + counts.outcomes + counts.other),
      };
      if (process.env.SHOW_STATEMENT_COUNTS) process.stdout.write(`${JSON.stringify(figures)}\n`);

      // Each command in order, each event once.
      const received = target
        .bodies()
        .map((body) => body.data.command as { command_uuid: string; status: string });
      expect(received).toHaveLength(deliveries);
      for (const command of commands) {
        expect(received.filter((c) => c.command_uuid === command).map((c) => c.status)).toEqual(statuses);
      }
      // Fan-outs, claims and outcomes grouped: one statement of each kind per delivery would be 3.
      expect(perDelivery(counts.fanOut)).toBeLessThanOrEqual(0.5);
      expect(figures.claimsPerDelivery).toBeLessThanOrEqual(0.35);
      expect(perDelivery(counts.outcomes)).toBeLessThanOrEqual(0.5);
      expect(figures.statementsPerDelivery).toBeLessThanOrEqual(1);
    } finally {
      await target.close();
    }
  });

  it('fail alone: an event that cannot be written is parked, the events written beside it are delivered', async () => {
    const target = await subscribedReceiver();
    try {
      const poisoned = randomUUID();
      const commands = Array.from({ length: 40 }, () => randomUUID());
      const event = (commandUuid: string) =>
        commandStatusChangedEvent({
          tenantUuid: tenant,
          commandUuid,
          status: 'pending',
          controllerUuid: randomUUID(),
        });
      // An event id longer than the rows' column: this event's rows can never be written. It comes amid the others,
      // so that it goes into a statement with some of them.
      const publish = (commandUuid: string) =>
        rig.eventBus.publish(CommandSubjects.statusChanged, event(commandUuid));
      await Promise.all([
        ...commands.slice(0, 20).map(publish),
        rig.eventBus.publish(CommandSubjects.statusChanged, { ...event(poisoned), eventId: 'x'.repeat(150) }),
        ...commands.slice(20).map(publish),
      ]);
      // Parked on its first failure; an event that had failed with it would be parked beside it.
      await eventually(
        () => database.query<{ ordering_key: string }>(`SELECT ordering_key FROM webhooks.parked_events`),
        (result) => result.rows.length > 0,
        { intervalMs: 20 },
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await database.query(`SELECT ordering_key FROM webhooks.parked_events`)).rows).toEqual([
        { ordering_key: `command:${poisoned}` },
      ]);
      await eventually(
        () => target.received.length,
        (received) => received >= commands.length,
      );
      const delivered = target
        .bodies()
        .map((body) => (body.data.command as { command_uuid: string }).command_uuid);
      expect(new Set(delivered)).toEqual(new Set(commands));
    } finally {
      await target.close();
    }
  });
});
