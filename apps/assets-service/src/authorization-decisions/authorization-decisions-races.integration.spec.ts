import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { AuthorizationDecisionRecord, EventEnvelope } from '@cpc/contracts';
import type { JetStreamEventBus } from '@cpc/nats';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
import type { QueryRunner } from 'typeorm';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { type ConsumerRaceDatabase, createConsumerRaceDatabase } from '../testing/consumer-race-database.js';
import { AuthorizationDecisionsService } from './authorization-decisions.service.js';

/**
 * Storing the gateways' authorization decisions: events handled a few at once, their decisions grouped into shared
 * INSERTs (store() called directly; the grouping forced by a second session holding an uncommitted decision).
 */

jest.setTimeout(60_000);

let db: ConsumerRaceDatabase;
let service: AuthorizationDecisionsService;
let controller: string;

beforeAll(async () => {
  db = await createConsumerRaceDatabase();
  [controller] = await db.createControllers(1);
  // One INSERT at a time, so the calls that arrive while it runs go together into the next one.
  service = new AuthorizationDecisionsService(undefined as unknown as JetStreamEventBus, db.dataSource, {
    ...ASSETS_SERVICE_TUNING,
    decisionInsertsInFlight: 1,
  });
});

afterAll(async () => {
  await db?.drop();
});

function decision(overrides: Partial<AuthorizationDecisionRecord> = {}): AuthorizationDecisionRecord {
  return {
    decisionUuid: randomUUID(),
    decidedAt: '2026-01-01T00:00:00.000Z',
    controllerUuid: controller,
    ocppIdentity: 'CP-1',
    locationUuid: db.locationUuid,
    idToken: 'TAG-1',
    type: null,
    tokenUuid: null,
    result: 'invalid',
    reason: 'unknown_token',
    messageKind: 'authorize',
    ...overrides,
  };
}

function eventOf(...decisions: AuthorizationDecisionRecord[]): EventEnvelope<unknown> {
  return {
    eventId: randomUUID(),
    occurredAt: '2026-01-01T00:00:00.000Z',
    tenantUuid: db.tenantUuid,
    data: { decisions },
  };
}

async function storedOf(uuids: readonly string[]): Promise<string[]> {
  const rows = await db.dataSource.query<{ uuid: string }[]>(
    `SELECT uuid FROM assets.authorization_decisions WHERE uuid = ANY($1::uuid[]) ORDER BY uuid`,
    [uuids],
  );
  return rows.map((row) => row.uuid);
}

/** A decision inserted in `session`'s transaction, not committed: as another delivery being stored. */
async function insertUncommitted(session: QueryRunner, held: AuthorizationDecisionRecord): Promise<void> {
  await session.query(
    `INSERT INTO assets.authorization_decisions (uuid, tenant_uuid, id_token, controller_uuid, location_uuid,
                                                 result, reason, message_kind, decided_at)
     VALUES ($1, $2, 'TAG-1', $3, $4, 'invalid', 'unknown_token', 'authorize', $5)`,
    [held.decisionUuid, db.tenantUuid, controller, db.locationUuid, held.decidedAt],
  );
}

describe('authorization decisions stored in shared INSERTs', () => {
  it('stores a redelivered event once, also while its first delivery has not committed', async () => {
    const first = decision();
    const session = await openSession(db.dataSource);
    await insertUncommitted(session, first);
    const second = decision();
    const redelivered = outcome(service.store(eventOf(first, second)));
    await lockWaiters(db.dataSource, 1);
    await session.commitTransaction();
    await session.release();
    expect((await redelivered).error).toBeUndefined();
    expect(await storedOf([first.decisionUuid, second.decisionUuid])).toEqual(
      [first.decisionUuid, second.decisionUuid].sort(),
    );
  });

  // store() drops (and logs) a decision whose result, reason, message kind or type is missing or longer than its
  // column, so it never reaches the shared INSERT; a value the table still refuses fails only its own call (the group
  // is retried one decision at a time).
  it("stores an event's decisions although another event's decision in the same INSERT is refused", async () => {
    // An INSERT under way (waiting for the session's uncommitted decision), so the next two calls are grouped.
    const held = decision();
    const session = await openSession(db.dataSource);
    await insertUncommitted(session, held);
    const blocker = outcome(service.store(eventOf(held)));
    await lockWaiters(db.dataSource, 1);
    const good = decision();
    const goodEvent = outcome(service.store(eventOf(good)));
    const poisonEvent = outcome(service.store(eventOf(decision({ reason: 'r'.repeat(40) as never }))));
    await session.commitTransaction();
    await session.release();
    expect((await blocker).error).toBeUndefined();
    await poisonEvent;
    expect((await goodEvent).error).toBeUndefined();
    expect(await storedOf([good.decisionUuid])).toEqual([good.decisionUuid]);
  });

  // A value store() lets through but the table refuses (here a lone surrogate, which jsonb refuses) fails the shared
  // INSERT, which is then retried one decision at a time: the refused decision is dropped (it would be refused on
  // every redelivery), the others are stored, and no event fails.
  it("drops only the decision the table refuses when it shares an INSERT with another's", async () => {
    const held = decision();
    const session = await openSession(db.dataSource);
    await insertUncommitted(session, held);
    const blocker = outcome(service.store(eventOf(held)));
    await lockWaiters(db.dataSource, 1);
    const good = decision();
    const goodEvent = outcome(service.store(eventOf(good)));
    const refused = decision({ idToken: 'TAG-\uD800' });
    const refusedEvent = outcome(service.store(eventOf(refused)));
    await session.commitTransaction();
    await session.release();
    expect((await blocker).error).toBeUndefined();
    expect((await goodEvent).error).toBeUndefined();
    expect((await refusedEvent).error).toBeUndefined();
    expect(await storedOf([good.decisionUuid, refused.decisionUuid])).toEqual([good.decisionUuid]);
  });

  // The refused decision is dropped by store(), so the event's valid decisions are stored and it is not redelivered.
  it('stores the valid decisions of an event that also carries one the table refuses', async () => {
    const good = decision();
    const result = await outcome(
      service.store(eventOf(good, decision({ messageKind: 'm'.repeat(30) as never }))),
    );
    expect(result.error).toBeUndefined();
    expect(await storedOf([good.decisionUuid])).toEqual([good.decisionUuid]);
  });
});
