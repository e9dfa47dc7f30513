import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { runStatement } from '@cpc/database';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
import type { DataSource, EntityManager } from 'typeorm';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  disableSubscription,
  failPendingOfDisabled,
  type FannedOutEvent,
  fanOutEvents,
  recordGone,
  recordOutcomes,
  retryDelivery,
} from '../repositories/deliveries.repository.js';
import {
  createWebhooksTestDatabase,
  insertCommandSubscriptions,
  type WebhooksTestDatabase,
} from '../testing/webhooks-test-database.js';

jest.setTimeout(60_000);

/** Every stream place reached: the ack floors hold nothing back here. */
const ACK_FLOOR = 1_000_000_000;
const LEASE_MS = 60_000;

/**
 * The delivery statements as the replicas run them at the same time, on a real PostgreSQL database: claims, fan-outs,
 * outcomes and disables racing each other and subscription changes, forced into one order by a second session's locks
 * (or its uncommitted work), never by sleeps.
 */
describe('webhook deliveries under concurrency', () => {
  let webhooks: WebhooksTestDatabase;
  let dataSource: DataSource;

  /** A replica's claim, on `runner` (a session's transaction, or a statement of its own). */
  const claim = (runner: DataSource | EntityManager, leaseMs = LEASE_MS): Promise<ClaimedDelivery[]> =>
    runStatement(runner, claimDueDeliveries, {
      limit: 100,
      leaseMs,
      perSubscriptionLimit: 100,
      inFlightSubscriptions: [],
      inFlightCounts: [],
      commandAckFloor: ACK_FLOOR,
      chargePointAckFloor: ACK_FLOOR,
      probeOnlyAfterMs: 3_600_000,
    });
  const record = (
    runner: DataSource | EntityManager,
    // `attempts`: the attempt the outcome reports, the first unless said otherwise.
    outcomes: { id: string; attempts?: number; delivered: boolean; next_attempt_at?: string }[],
  ) =>
    runStatement(runner, recordOutcomes, {
      outcomes: JSON.stringify(
        outcomes.map(({ id, attempts = 1, delivered, next_attempt_at }) => ({
          id,
          attempts,
          delivered,
          status_code: delivered ? 204 : 500,
          error: delivered ? null : 'HTTP 500: nope',
          next_attempt_at: delivered ? null : (next_attempt_at ?? new Date(Date.now() + 5000).toISOString()),
        })),
      ),
    });
  /** An enabled subscription of a fresh tenant to command status changes. */
  const newSubscription = async () => {
    const tenant = randomUUID();
    const subscription = randomUUID();
    await insertCommandSubscriptions(dataSource, tenant, [subscription]);
    return { tenant, subscription };
  };
  /** Rows of one queue (a command) of the subscription, due now, at stream places 1, 2, … */
  const queue = async (tenant: string, subscription: string, length: number): Promise<string[]> => {
    const command = randomUUID();
    const ids = Array.from({ length }, () => randomUUID());
    await dataSource.query(
      `INSERT INTO webhooks.deliveries
              (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body,
               next_attempt_at)
       SELECT id, $2, $3, 'event-' || id, 'command.status_changed', $4, place, '{}', now()
         FROM unnest($1::uuid[]) WITH ORDINALITY AS row(id, place)`,
      [ids, tenant, subscription, `command:${command}`],
    );
    return ids;
  };
  const statuses = async (subscription: string): Promise<string[]> =>
    (
      await dataSource.query<{ status: string }[]>(
        `SELECT status FROM webhooks.deliveries WHERE subscription_uuid = $1 ORDER BY seq`,
        [subscription],
      )
    ).map((row) => row.status);
  const commandEvent = (tenant: string): FannedOutEvent => {
    const command = randomUUID();
    return {
      tenant_uuid: tenant,
      event_id: `event-${randomUUID()}`,
      event_type: 'command.status_changed',
      ordering_key: `command:${command}`,
      stream_seq: 1,
      body: '{}',
      controller_uuid: randomUUID(),
      location_uuid: null,
    };
  };
  const fanOut = (runner: DataSource | EntityManager, events: FannedOutEvent[]) =>
    runStatement(runner, fanOutEvents, { events: JSON.stringify(events) });

  beforeAll(async () => {
    webhooks = await createWebhooksTestDatabase();
    dataSource = webhooks.dataSource;
  });

  afterAll(async () => {
    await webhooks?.drop();
  });

  describe('two replicas claiming at once', () => {
    it('never take the same row, and a queue goes on only after its head is recorded', async () => {
      const { tenant, subscription } = await newSubscription();
      const first = await queue(tenant, subscription, 3);
      const second = await queue(tenant, subscription, 1);

      const session = await openSession(dataSource);
      let claimedByOne: ClaimedDelivery[];
      try {
        // Replica one's claim has taken its rows but not committed yet; replica two claims meanwhile.
        claimedByOne = await claim(session.manager);
        expect(claimedByOne.map((row) => row.id).sort()).toEqual([first[0], second[0]].sort());
        expect(await claim(dataSource)).toEqual([]);
        await session.commitTransaction();
      } finally {
        await session.release();
      }
      // Committed: the heads are leased, their followers wait behind them.
      expect(await claim(dataSource)).toEqual([]);

      // Replica one records the first queue's head as delivered, uncommitted: its follower is not taken yet.
      const recording = await openSession(dataSource);
      try {
        await record(recording.manager, [{ id: first[0], delivered: true }]);
        expect(await claim(dataSource)).toEqual([]);
        await recording.commitTransaction();
      } finally {
        await recording.release();
      }
      expect((await claim(dataSource)).map((row) => row.id)).toEqual([first[1]]);
    });

    it(':retry of a row in flight does not hand it to a second replica while its lease runs', async () => {
      const { tenant, subscription } = await newSubscription();
      const [row, follower] = await queue(tenant, subscription, 2);
      expect((await claim(dataSource)).map((each) => each.id)).toEqual([row]);
      const [retried] = await runStatement(dataSource, retryDelivery, {
        tenantUuid: tenant,
        subscriptionUuid: subscription,
        id: row,
      });
      expect(retried.status).toBe('pending');
      expect(await claim(dataSource)).toEqual([]);
      // The attempt in flight is delivered: the retry asked for during it does not keep the queue waiting.
      await record(dataSource, [{ id: row, delivered: true }]);
      expect((await claim(dataSource)).map((each) => each.id)).toEqual([follower]);
    });

    it('claims racing each other many times never hand out a row twice nor two rows of one queue', async () => {
      const { tenant, subscription } = await newSubscription();
      const queues = await Promise.all(Array.from({ length: 10 }, () => queue(tenant, subscription, 3)));
      const heads = new Set(queues.map((rows) => rows[0]));
      const claimed = (await Promise.all(Array.from({ length: 6 }, () => claim(dataSource)))).flat();
      const ids = claimed.map((row) => row.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((id) => heads.has(id))).toBe(true);
    });
  });

  describe('a fan-out racing a subscription change', () => {
    // A fan-out share-locks the subscriptions it writes for, so a disable waits for one in flight, and its second
    // statement (failPendingOfDisabled) fails the rows that fan-out committed meanwhile: none is left pending, to be
    // sent once the subscription is enabled again.
    it('a 410 disable leaves no pending row of a fan-out that was in flight', async () => {
      const { tenant, subscription } = await newSubscription();
      const session = await openSession(dataSource);
      try {
        const [fannedOut] = await fanOut(session.manager, [commandEvent(tenant)]);
        expect(fannedOut.inserted).toBe(1);
        const disabling = dataSource.transaction(async (manager) => {
          const reason = 'the receiver answered 410 Gone';
          const [{ disabled }] = await runStatement(manager, disableSubscription, {
            subscriptionUuid: subscription,
            reason,
            failingForMs: null,
          });
          expect(disabled).toBe(true);
          await runStatement(manager, failPendingOfDisabled, { subscriptionUuid: subscription, reason });
        });
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        await disabling;
      } finally {
        await session.release();
      }
      expect(await statuses(subscription)).toEqual(['failed']);
    });

    it('a fan-out that waited for a disable writes no row for it', async () => {
      const { tenant, subscription } = await newSubscription();
      const session = await openSession(dataSource);
      try {
        await session.query(`UPDATE webhooks.subscriptions SET enabled = false WHERE uuid = $1`, [
          subscription,
        ]);
        const fanning = fanOut(dataSource, [commandEvent(tenant)]);
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        expect((await fanning)[0].inserted).toBe(0);
      } finally {
        await session.release();
      }
      expect(await statuses(subscription)).toEqual([]);
    });

    // The fan-out waits for a DELETE of a subscription it would write for, then leaves it out: the rest of the batch,
    // other tenants' events among them, is written.
    it('a DELETE committed during a fan-out drops only its own rows, the batch goes on', async () => {
      const deleted = await newSubscription();
      const kept = await newSubscription();
      const session = await openSession(dataSource);
      let fannedOut: Awaited<ReturnType<typeof outcome<{ inserted: number }[]>>>;
      try {
        await session.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [deleted.subscription]);
        const fanning = outcome(
          fanOut(dataSource, [commandEvent(deleted.tenant), commandEvent(kept.tenant)]),
        );
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        fannedOut = await fanning;
      } finally {
        await session.release();
      }
      expect(fannedOut.error).toBeUndefined();
      expect(fannedOut.value?.[0].inserted).toBe(1);
      expect(await statuses(kept.subscription)).toEqual(['pending']);
      // Its row would be claimed by the tests below, which claim whatever is due.
      await dataSource.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [kept.subscription]);
    });

    it('a DELETE waiting for a fan-out to commit takes its rows with it', async () => {
      const { tenant, subscription } = await newSubscription();
      const session = await openSession(dataSource);
      try {
        await fanOut(session.manager, [commandEvent(tenant)]);
        const deleting = dataSource.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [
          subscription,
        ]);
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        await deleting;
      } finally {
        await session.release();
      }
      expect(await statuses(subscription)).toEqual([]);
    });
  });

  describe('outcomes of a deleted subscription', () => {
    it('recorded after the DELETE: nothing to write, no error, nothing comes back', async () => {
      const { tenant, subscription } = await newSubscription();
      const [failing, delivered, gone] = (
        await Promise.all([1, 2, 3].map(() => queue(tenant, subscription, 1)))
      ).flat();
      expect(await claim(dataSource)).toHaveLength(3);
      await dataSource.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [subscription]);

      expect(
        await record(dataSource, [
          { id: failing, delivered: false },
          { id: delivered, delivered: true },
        ]),
      ).toEqual([]);
      await dataSource.transaction(async (manager) => {
        await runStatement(manager, disableSubscription, {
          subscriptionUuid: subscription,
          reason: 'the receiver answered 410 Gone',
          failingForMs: null,
        });
        await runStatement(manager, recordGone, { id: gone, statusCode: 410, error: 'HTTP 410: nope' });
      });
      const [{ count }] = await dataSource.query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM webhooks.subscriptions WHERE uuid = $1`,
        [subscription],
      );
      expect(count).toBe(0);
      expect(await statuses(subscription)).toEqual([]);
    });

    it('recorded while the DELETE commits: waits for it, then writes nothing', async () => {
      const { tenant, subscription } = await newSubscription();
      const [row] = await queue(tenant, subscription, 1);
      expect(await claim(dataSource)).toHaveLength(1);
      const session = await openSession(dataSource);
      let recorded: Awaited<ReturnType<typeof outcome<unknown[]>>>;
      try {
        await session.query(`DELETE FROM webhooks.subscriptions WHERE uuid = $1`, [subscription]);
        const recording = outcome(record(dataSource, [{ id: row, delivered: false }]));
        await lockWaiters(dataSource, 1);
        await session.commitTransaction();
        recorded = await recording;
      } finally {
        await session.release();
      }
      expect(recorded).toEqual({ value: [] });
      expect(await statuses(subscription)).toEqual([]);
    });
  });

  describe('an attempt that outlived its lease', () => {
    // An attempt may outlive its lease (it waits up to half of it before it is sent; the config keeps its timeouts in
    // the other half, but the outcome's write can be late too), and another replica may have claimed the row since: an
    // outcome counts only for the attempt its row is at, so a late one leaves the later claim alone.
    it("a stale attempt's outcome leaves the later claim's lease in place", async () => {
      const { tenant, subscription } = await newSubscription();
      const [row] = await queue(tenant, subscription, 1);
      // Replica one's claim, its lease over at once (as after an attempt longer than the lease).
      const [stale] = await claim(dataSource, 0);
      const [current] = await claim(dataSource);
      expect([stale.id, current.id, stale.attempts, current.attempts]).toEqual([row, row, 1, 2]);
      const [{ leased_until: leasedUntil }] = await dataSource.query<{ leased_until: Date }[]>(
        `SELECT leased_until FROM webhooks.deliveries WHERE id = $1`,
        [row],
      );

      await record(dataSource, [{ id: row, attempts: stale.attempts, delivered: false }]);

      const [after] = await dataSource.query<{ leased_until: Date | null; status: string }[]>(
        `SELECT leased_until, status FROM webhooks.deliveries WHERE id = $1`,
        [row],
      );
      expect(after).toEqual({ leased_until: leasedUntil, status: 'pending' });
    });
  });
});
