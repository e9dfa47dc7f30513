import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { runStatement } from '@cpc/database';
import { lockWaiters, openSession } from '@cpc/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { type FannedOutEvent, fanOutEvents, insertPing } from '../repositories/deliveries.repository.js';
import {
  createWebhooksTestDatabase,
  insertCommandSubscriptions,
  type WebhooksTestDatabase,
} from '../testing/webhooks-test-database.js';
import { readDeliveriesPage } from './delivery-pages.js';

jest.setTimeout(60_000);

const LIMIT = 2;

/** A delivery insert that has drawn its seq and not committed yet. */
interface HeldInsert {
  /** The backend running it. */
  pid: number;
  /** The event_id of its row. */
  eventId: string;
  /** Lets it commit and waits until it has. */
  commit(): Promise<void>;
}

type Page = Awaited<ReturnType<typeof readDeliveriesPage>>;

/**
 * Walks of a subscription's deliveries list by cursor, on a real PostgreSQL database, while a delivery insert that
 * drew its seq earlier commits after one that drew a later seq: a walk must never pass a seq whose row shows up later.
 */
describe('walking the deliveries list while inserts commit out of seq order', () => {
  let webhooks: WebhooksTestDatabase;
  let dataSource: DataSource;

  const commandEvent = (tenant: string): FannedOutEvent => ({
    tenant_uuid: tenant,
    event_id: `event-${randomUUID()}`,
    event_type: 'command.status_changed',
    ordering_key: `command:${randomUUID()}`,
    stream_seq: 1,
    body: '{}',
    controller_uuid: randomUUID(),
    location_uuid: null,
  });
  const fanOut = (runner: DataSource | EntityManager, events: FannedOutEvent[]) =>
    runStatement(runner, fanOutEvents, { events: JSON.stringify(events) });
  const newSubscription = async () => {
    const tenant = randomUUID();
    const subscription = randomUUID();
    await insertCommandSubscriptions(dataSource, tenant, [subscription]);
    return { tenant, subscription };
  };
  /** A test-only row of the subscription, inserted by `session` (uncommitted there), to make an insert wait. */
  const blockingRow = (
    session: EntityManager,
    tenant: string,
    subscription: string,
    id: string,
    eventId: string,
  ) =>
    session.query(
      `INSERT INTO webhooks.deliveries (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, body)
       VALUES ($1, $2, $3, $4, 'ping', 'blocking', '{}')`,
      [id, tenant, subscription, eventId],
    );
  const everyDelivery = async (subscription: string): Promise<string[]> =>
    (
      await dataSource.query<{ id: string }[]>(
        `SELECT id FROM webhooks.deliveries WHERE subscription_uuid = $1`,
        [subscription],
      )
    )
      .map((row) => row.id)
      .sort();

  const backendOf = async (session: EntityManager): Promise<number> =>
    (await session.query<{ pid: number }[]>(`SELECT pg_backend_pid() AS pid`))[0].pid;
  /** The one backend of the database waiting for a lock. */
  const lockWaiter = async (): Promise<number> => {
    const [waiter, ...others] = await dataSource.query<{ pid: number }[]>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    expect(others).toEqual([]);
    return waiter.pid;
  };
  const applicationNameOf = async (pid: number): Promise<string> =>
    (
      await dataSource.query<{ application_name: string }[]>(
        `SELECT application_name FROM pg_stat_activity WHERE pid = $1`,
        [pid],
      )
    )[0].application_name;
  const seqOf = async (eventId: string): Promise<bigint> =>
    BigInt(
      (
        await dataSource.query<{ seq: string }[]>(
          `SELECT seq::text AS seq FROM webhooks.deliveries WHERE event_id = $1`,
          [eventId],
        )
      )[0].seq,
    );

  /** The ways a delivery insert runs: each is held after drawing its seq, until `commit`. */
  const holders: [string, (tenant: string, subscription: string) => Promise<HeldInsert>][] = [
    [
      'a fan-out in a transaction that goes on after it (a session event)',
      async (tenant) => {
        const session = await openSession(dataSource);
        const event = commandEvent(tenant);
        await fanOut(session.manager, [event]);
        return {
          pid: await backendOf(session.manager),
          eventId: event.event_id,
          commit: async () => {
            await session.commitTransaction();
            await session.release();
          },
        };
      },
    ],
    [
      'a fan-out of its own, waiting for a lock after drawing its seq',
      async (tenant, subscription) => {
        const event = commandEvent(tenant);
        // The same event and subscription, uncommitted: the fan-out's ON CONFLICT waits for it after its nextval.
        const session = await openSession(dataSource);
        await blockingRow(session.manager, tenant, subscription, randomUUID(), event.event_id);
        const fannedOut = fanOut(dataSource, [event]);
        await lockWaiters(dataSource, 1);
        return {
          pid: await lockWaiter(),
          eventId: event.event_id,
          commit: async () => {
            await session.rollbackTransaction();
            await session.release();
            await fannedOut;
          },
        };
      },
    ],
    [
      'a ping (:test), waiting for a lock after drawing its seq',
      async (tenant, subscription) => {
        const id = randomUUID();
        // The same id, uncommitted: the ping's primary key check waits for it after the row got its seq.
        const session = await openSession(dataSource);
        await blockingRow(session.manager, tenant, subscription, id, `blocking-${id}`);
        const pinged = runStatement(dataSource, insertPing, {
          id,
          tenantUuid: tenant,
          subscriptionUuid: subscription,
          eventId: `ping-${id}`,
          orderingKey: `ping:${id}`,
          body: '{}',
        });
        await lockWaiters(dataSource, 1);
        return {
          pid: await lockWaiter(),
          eventId: `ping-${id}`,
          commit: async () => {
            await session.rollbackTransaction();
            await session.release();
            await pinged;
          },
        };
      },
    ],
  ];

  const read = (tenant: string, subscription: string, request: { page?: number; cursor?: string }) =>
    readDeliveriesPage(dataSource, tenant, { uuid: subscription, page: 1, limit: LIMIT, ...request });
  const ids = (page: Page) => page.rows.map((row) => row.id);

  /**
   * Follows `link` from `cursor`, into `seen`, until the link ends or a page comes back empty while rows are held back
   * (its link then points where it was read from: read it again later); answers the link to go on from.
   */
  const walk = async (
    tenant: string,
    subscription: string,
    cursor: string | undefined,
    link: 'next' | 'prev',
    seen: string[],
  ): Promise<string | undefined> => {
    for (let pages = 0; cursor !== undefined; pages += 1) {
      if (pages > 20) throw new Error(`the ${link} links did not end`);
      const page = await read(tenant, subscription, { cursor });
      seen.push(...ids(page));
      cursor = page.pagination.cursor[link];
      if (page.rows.length === 0) return cursor;
    }
    return undefined;
  };

  beforeAll(async () => {
    webhooks = await createWebhooksTestDatabase();
    dataSource = webhooks.dataSource;
  });

  afterAll(async () => {
    await webhooks?.drop();
  });

  it('draws seqs from a sequence that hands out one value at a time, in order', async () => {
    const [sequence] = await dataSource.query<Record<string, unknown>[]>(
      `SELECT pg_get_serial_sequence('webhooks.deliveries', 'seq') AS name, s.cache_size::int AS cache_size,
              s.increment_by::int AS increment_by, s.cycle
         FROM pg_sequences s WHERE s.schemaname = 'webhooks' AND s.sequencename = 'deliveries_seq_seq'`,
    );
    expect(sequence).toEqual({
      name: 'webhooks.deliveries_seq_seq',
      cache_size: 1,
      increment_by: 1,
      cycle: false,
    });
  });

  it('keeps the first mark of a transaction for its later fan-outs (a location-filtered second run)', async () => {
    const { tenant } = await newSubscription();
    const session = await openSession(dataSource);
    try {
      const pid = await backendOf(session.manager);
      await fanOut(session.manager, [commandEvent(tenant)]);
      const first = await applicationNameOf(pid);
      await fanOut(dataSource, [commandEvent(tenant)]);
      await fanOut(session.manager, [commandEvent(tenant)]);
      expect(await applicationNameOf(pid)).toBe(first);
    } finally {
      await session.rollbackTransaction();
      await session.release();
    }
  });

  it('an empty first page still leads to the deliveries it holds back, once they are readable', async () => {
    const { tenant, subscription } = await newSubscription();
    const held = await holders[0][1](tenant, subscription);
    await fanOut(dataSource, [commandEvent(tenant)]);
    const first = await read(tenant, subscription, { page: 1 });
    expect(first.rows).toEqual([]);
    expect(first.pagination.cursor.prev).toBeDefined();
    await held.commit();
    const seen: string[] = [];
    await walk(tenant, subscription, first.pagination.cursor.prev, 'prev', seen);
    expect(seen.sort()).toEqual(await everyDelivery(subscription));
    expect(seen).toHaveLength(2);
  });

  it('holds nothing back with no insert in flight', async () => {
    const { tenant, subscription } = await newSubscription();
    await fanOut(dataSource, [commandEvent(tenant), commandEvent(tenant), commandEvent(tenant)]);
    const first = await read(tenant, subscription, { page: 1 });
    expect(first.rows).toHaveLength(LIMIT);
    expect(first.pagination.cursor.prev).toBeUndefined();
    const second = await read(tenant, subscription, { cursor: first.pagination.cursor.next });
    expect(second.rows).toHaveLength(1);
    const back = await read(tenant, subscription, { cursor: second.pagination.cursor.prev });
    expect(back.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
    expect(back.pagination.cursor.prev).toBeUndefined();
  });

  describe.each(holders)('%s', (_name, hold) => {
    it('marks its transaction with a seq below the one it drew, until it has committed', async () => {
      const { tenant, subscription } = await newSubscription();
      const [{ own }] = await dataSource.query<{ own: string }[]>(
        `SELECT current_setting('application_name') AS own`,
      );
      const held = await hold(tenant, subscription);
      const marked = await applicationNameOf(held.pid);
      const from = new RegExp(`^${own} inserts webhooks\\.deliveries from (\\d+)$`).exec(marked);
      expect(from).not.toBeNull();
      await held.commit();
      expect(BigInt(from![1])).toBeLessThan(await seqOf(held.eventId));
      expect(await applicationNameOf(held.pid)).toBe(own);
    });

    // The gap: with no horizon, a page towards newer deliveries showed a later seq already committed, and its `prev`
    // cursor passed the earlier seq of an insert still in flight, which that walk then never showed.
    it('a walk towards newer deliveries (prev) never passes a delivery still being committed', async () => {
      const { tenant, subscription } = await newSubscription();
      const older = Array.from({ length: 4 }, () => commandEvent(tenant));
      await fanOut(dataSource, older);
      const start = await read(tenant, subscription, { page: 2 });
      expect(start.rows).toHaveLength(LIMIT);

      const held = await hold(tenant, subscription);
      await fanOut(dataSource, [commandEvent(tenant)]);
      const seen = ids(start);
      const onwards = await walk(tenant, subscription, start.pagination.cursor.prev, 'prev', seen);
      await held.commit();
      await walk(tenant, subscription, onwards, 'prev', seen);

      const all = await everyDelivery(subscription);
      expect(all).toHaveLength(6);
      expect([...seen].sort()).toEqual(all);
    });

    // The gap: with no horizon, the first page showed the later seqs already committed and its `next` cursor passed
    // the earlier seq of an insert still in flight; the first page had no `prev`, so nothing led to it once committed.
    it('a walk towards older deliveries (next) never passes a delivery still being committed', async () => {
      const { tenant, subscription } = await newSubscription();
      await fanOut(dataSource, [commandEvent(tenant), commandEvent(tenant)]);
      const held = await hold(tenant, subscription);
      await fanOut(dataSource, [commandEvent(tenant), commandEvent(tenant)]);

      const first = await read(tenant, subscription, { page: 1 });
      const seen = ids(first);
      await walk(tenant, subscription, first.pagination.cursor.next, 'next', seen);
      await held.commit();
      // What the first page held back is newer than it: `prev` leads there.
      await walk(tenant, subscription, first.pagination.cursor.prev, 'prev', seen);

      const all = await everyDelivery(subscription);
      expect(all).toHaveLength(5);
      expect([...seen].sort()).toEqual(all);
    });
  });
});
