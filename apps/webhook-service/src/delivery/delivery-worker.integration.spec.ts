import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  CommandSubjects,
  type CreatedWebhookSubscription,
  WebhookSubjects,
  type WebhookSubscriptionView,
} from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { commandStatusChangedEvent, eventually, ServiceTestRig, WebhookReceiver } from '@cpc/testing';
import pg from 'pg';
import { createWebhooksDataSource } from '../data-source.js';
import { startWebhookService } from '../start-webhook-service.js';
import { webhookServiceTestConfig } from '../testing/webhook-service-test-config.js';

jest.setTimeout(60_000);

/** One replica with a cap of 2 requests per subscription and 2 claimed rows more waiting. */
const CAP = 2;
const WAITING = 2;
/** A subscription failing this long without a success gets one request at a time. */
const PROBE_ONLY_AFTER_MS = 300;

let rig: ServiceTestRig;
let database: pg.Client;
let receiver: WebhookReceiver;
/** Answers the receiver has not given yet, oldest first: the test gives them. */
const unanswered: (() => void)[] = [];
const tenantUuid = randomUUID();

async function publishPending(commands: string[], ofTenant = tenantUuid): Promise<void> {
  for (const commandUuid of commands) {
    const event = commandStatusChangedEvent({
      tenantUuid: ofTenant,
      commandUuid,
      status: 'pending',
      controllerUuid: randomUUID(),
      occurredAt: new Date().toISOString(),
    });
    await rig.eventBus.publish(CommandSubjects.statusChanged, event);
  }
}

/**
 * The subscription's rows by state: claimed (an attempt counted, not recorded yet; a row waiting for its retry after a
 * failed attempt is not), due, delivered.
 */
async function rows(subscriptionUuid: string): Promise<{ claimed: number; due: number; delivered: number }> {
  const {
    rows: [counts],
  } = await database.query<{ claimed: number; due: number; delivered: number }>(
    `SELECT count(*) FILTER (WHERE status = 'pending' AND leased_until > now())::int AS claimed,
            count(*) FILTER (WHERE status = 'pending' AND next_attempt_at <= now() AND attempts = 0)::int AS due,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered
       FROM webhooks.deliveries WHERE subscription_uuid = $1`,
    [subscriptionUuid],
  );
  return counts;
}

/** A subscription of `ofTenant` to command status changes, sent to `url`. */
async function subscribe(url: string, ofTenant = tenantUuid) {
  const created = await rig.call<CreatedWebhookSubscription>(
    WebhookSubjects.create,
    { url, event_types: ['command.status_changed'] },
    ofTenant,
  );
  return created.subscription;
}

function answerOldest(count: number): void {
  for (const answer of unanswered.splice(0, count)) answer();
}

beforeAll(async () => {
  rig = await ServiceTestRig.start({
    migrate: (databaseUrl) => migrateServiceSchema(createWebhooksDataSource(databaseUrl)),
    start: ({ natsUrl, databaseUrl }) =>
      startWebhookService(
        webhookServiceTestConfig(
          { natsUrl, databaseUrl },
          { WEBHOOK_RESPONSE_TIMEOUT_MS: '26000' },
          {
            maxRequestsInFlightPerSubscription: CAP,
            maxClaimedWaitingPerSubscription: WAITING,
            failingSubscriptionProbeAfterMs: PROBE_ONLY_AFTER_MS,
            idlePollIntervalMs: 50,
          },
        ),
      ),
  });
  database = new pg.Client({ connectionString: rig.database.url });
  await database.connect();
  receiver = await WebhookReceiver.start(
    () => new Promise<number>((resolve) => unanswered.push(() => resolve(204))),
  );
});

afterAll(async () => {
  answerOldest(unanswered.length);
  await receiver?.close();
  await database?.end();
  await rig?.stop();
});

describe('a replica without any enabled subscription', () => {
  it('runs no claim statement, and claims once a subscription is there', async () => {
    // The claim statements the service sends (its pool's clients are pg.Client).
    let claims = 0;
    const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    // Called with each client as `this` below.
    const original = prototype.query;
    const query = jest.spyOn(prototype, 'query').mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      const [text] = args;
      const sql = typeof text === 'string' ? text : (text as { text?: string } | undefined)?.text;
      if (sql?.includes('WITH in_flight AS')) claims += 1;
      return original.apply(this, args);
    });
    try {
      // Ten idle polls' time.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(claims).toBe(0);
      const created = await subscribe(receiver.url);
      await eventually(
        () => claims,
        (count) => count > 0,
      );
      await rig.call(WebhookSubjects.delete, { uuid: created.uuid }, tenantUuid);
    } finally {
      query.mockRestore();
    }
  });
});

describe('claimed deliveries beyond the requests in flight', () => {
  let subscription: WebhookSubscriptionView;

  beforeAll(async () => {
    subscription = await subscribe(receiver.url);
  });

  it('wait in the replica and go out as requests are answered, never more at once than the cap', async () => {
    const uuid = subscription.uuid;
    await publishPending(Array.from({ length: 6 }, () => randomUUID()));
    // The cap's requests at the receiver, as many more claimed and waiting, the rest due in the database.
    await eventually(
      () => rows(uuid),
      (counts) => counts.claimed === CAP + WAITING && counts.due === 6 - CAP - WAITING,
    );
    // A claim commits before its requests reach the receiver.
    await eventually(
      () => receiver.received.length,
      (received) => received === CAP,
    );

    answerOldest(1);
    await eventually(
      () => receiver.received.length,
      (received) => received === CAP + 1,
    );
    while ((await rows(uuid)).delivered < 6) {
      answerOldest(unanswered.length);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(receiver.received).toHaveLength(6);
    expect(receiver.mostOpenAtOnce).toBe(CAP);
  });

  it('sends nothing more that waits for a subscription disabled meanwhile, and gives its rows back', async () => {
    const other = await WebhookReceiver.start(
      () => new Promise<number>((resolve) => unanswered.push(() => resolve(204))),
    );
    // A tenant of its own, so the first subscription gets none of these events.
    const otherTenant = randomUUID();
    try {
      const disabled = await subscribe(other.url, otherTenant);
      await publishPending(
        Array.from({ length: CAP + WAITING }, () => randomUUID()),
        otherTenant,
      );
      await eventually(
        () => rows(disabled.uuid),
        (counts) => counts.claimed === CAP + WAITING,
      );
      expect(other.received).toHaveLength(CAP);
      await rig.call(
        WebhookSubjects.update,
        { uuid: disabled.uuid, changes: { enabled: false } },
        otherTenant,
      );
      // The requests under way are answered; the rows that waited are not sent but due again, for its return.
      await eventually(
        () => rows(disabled.uuid),
        (counts) => counts.due === WAITING,
      );
      while ((await rows(disabled.uuid)).delivered < CAP || unanswered.length > 0) {
        answerOldest(unanswered.length);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(other.received).toHaveLength(CAP);
      expect(await rows(disabled.uuid)).toEqual({ claimed: 0, due: WAITING, delivered: CAP });
    } finally {
      await other.close();
    }
  });

  it('gives a subscription failing for a while one request at a time, and its share back after a success', async () => {
    let failing = true;
    const flaky = await WebhookReceiver.start(() =>
      failing ? 500 : new Promise<number>((resolve) => unanswered.push(() => resolve(204))),
    );
    const ownTenant = randomUUID();
    try {
      const down = await subscribe(flaky.url, ownTenant);
      await publishPending([randomUUID()], ownTenant);
      await eventually(
        () => flaky.received.length,
        (received) => received === 1,
      );
      // Failing since its answer, and no success since: past the threshold it gets one request at a time.
      await new Promise((resolve) => setTimeout(resolve, PROBE_ONLY_AFTER_MS + 100));
      failing = false;
      await publishPending(
        Array.from({ length: 6 }, () => randomUUID()),
        ownTenant,
      );
      await eventually(
        () => flaky.received.length,
        (received) => received === 2,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect([flaky.received.length, (await rows(down.uuid)).claimed]).toEqual([2, 1]);

      // The probe succeeds: the streak ends and the share is back (the cap's requests at once, more waiting).
      answerOldest(unanswered.length);
      await eventually(
        () => flaky.open,
        (open) => open === CAP,
      );
      await eventually(
        () => rows(down.uuid),
        (counts) => counts.claimed === CAP + WAITING,
      );
      while ((await rows(down.uuid)).delivered < 6) {
        answerOldest(unanswered.length);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      answerOldest(unanswered.length);
      await flaky.close();
    }
  });

  it('gives a receiver that stopped answering one request at a time until it answers again', async () => {
    // Each request waits for the test: the receiver hangs up (no answer) or answers 204.
    const held: ((answer: number | 'hang up') => void)[] = [];
    let answerAtOnce = false;
    const silent = await WebhookReceiver.start(() =>
      answerAtOnce ? 204 : new Promise<number | 'hang up'>((resolve) => held.push(resolve)),
    );
    const ownTenant = randomUUID();
    try {
      const down = await subscribe(silent.url, ownTenant);
      await publishPending(
        Array.from({ length: 6 }, () => randomUUID()),
        ownTenant,
      );
      await eventually(
        () => rows(down.uuid),
        (counts) => counts.claimed === CAP + WAITING,
      );
      // The rows are claimed before their requests arrive: on a busy machine the second may still be on its way.
      await eventually(
        () => silent.received.length,
        (received) => received === CAP,
      );

      // A request gets no answer: its slot starts none of the rows waiting while the other request is out.
      held.shift()?.('hang up');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(silent.received).toHaveLength(CAP);
      // Nor does the other's: one request goes out, and one only.
      held.shift()?.('hang up');
      await eventually(
        () => silent.received.length,
        (received) => received === CAP + 1,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect([silent.received.length, silent.open]).toEqual([CAP + 1, 1]);

      // It is answered: the subscription's share is back.
      held.shift()?.(204);
      await eventually(
        () => silent.open,
        (open) => open === CAP,
      );
    } finally {
      answerAtOnce = true;
      for (const answer of held.splice(0)) answer(204);
      await silent.close();
    }
  });

  it('gives the rows still waiting back to the database when the replica stops', async () => {
    const uuid = subscription.uuid;
    const sentBefore = receiver.received.length;
    await publishPending(Array.from({ length: CAP + WAITING }, () => randomUUID()));
    await eventually(
      () => rows(uuid),
      (counts) => counts.claimed === CAP + WAITING,
    );
    const stopped = rig.stopService();
    // The requests under way finish; what waits is not sent any more but due again, its attempt not counted.
    await new Promise((resolve) => setTimeout(resolve, 100));
    answerOldest(unanswered.length);
    await stopped;
    expect(receiver.received.length - sentBefore).toBe(CAP);
    expect(await rows(uuid)).toEqual({ claimed: 0, due: WAITING, delivered: 6 + CAP });
  });
});
