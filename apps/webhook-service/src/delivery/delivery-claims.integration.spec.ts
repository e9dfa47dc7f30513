import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CommandSubjects, type CreatedWebhookSubscription, WebhookSubjects } from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import type { RunningService } from '@cpc/service-runtime';
import { commandStatusChangedEvent, eventually, ServiceTestRig, WebhookReceiver } from '@cpc/testing';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { createWebhooksDataSource } from '../data-source.js';
import { claimDueDeliveries, fanOutEvent, recordOutcomes } from '../repositories/deliveries.repository.js';
import { startWebhookService } from '../start-webhook-service.js';
import { webhookServiceTestConfig } from '../testing/webhook-service-test-config.js';

jest.setTimeout(90_000);

/**
 * What PostgreSQL does per delivery: every statement webhook-service sends while a burst of command status changes is
 * delivered to a healthy receiver, counted on its pool's connections (each statement there is one round trip, and
 * outside a transaction one commit). The claims must not follow the deliveries one for one: they are grouped.
 */

type StatementKind = 'fanOut' | 'claim' | 'outcomes' | 'other';

const KIND_OF_TEXT = new Map<string, StatementKind>([
  [fanOutEvent.text, 'fanOut'],
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
const tenant = randomUUID();

beforeAll(async () => {
  rig = await ServiceTestRig.start({
    migrate: (databaseUrl) => migrateServiceSchema(createWebhooksDataSource(databaseUrl)),
    start: async ({ natsUrl, databaseUrl }) =>
      (service = await startWebhookService(webhookServiceTestConfig(natsUrl, databaseUrl))),
  });
});

afterAll(async () => {
  await rig?.stop();
});

describe('the claims of a burst of deliveries', () => {
  it('take a bounded share of the statements: grouped, not one per delivery', async () => {
    const target = await WebhookReceiver.start();
    try {
      await rig.call<CreatedWebhookSubscription>(
        WebhookSubjects.create,
        { url: target.url, event_types: ['command.status_changed'] },
        tenant,
      );
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
      // One fan-out per event; claims and outcomes grouped: a claim per delivery would be 1.
      expect(counts.fanOut).toBe(deliveries);
      expect(figures.claimsPerDelivery).toBeLessThanOrEqual(0.35);
      expect(perDelivery(counts.outcomes)).toBeLessThanOrEqual(0.5);
      expect(figures.statementsPerDelivery).toBeLessThanOrEqual(2);
    } finally {
      await target.close();
    }
  });
});
