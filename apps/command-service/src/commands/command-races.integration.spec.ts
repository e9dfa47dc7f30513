import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import {
  type CommandPage,
  CommandSubjects,
  type CommandView,
  type CreatedCommand,
  ErrorCode,
  type ListCommandsPayload,
  OcppCallEventSubjects,
  type OcppCallReply,
} from '@cpc/contracts';
import { insertMarker } from '@cpc/database';
import { DomainError } from '@cpc/errors';
import type { RunningService } from '@cpc/service-runtime';
import { eventually, lockWaiters, openSession, outcome } from '@cpc/testing';
import { DataSource, type QueryRunner } from 'typeorm';
import { statusChangedEvent } from './command-record.js';
import { CommandInserts, type NewCommand } from './creation/command-inserts.js';
import { GatewayCallEventsConsumer } from './outcomes/gateway-call-events.consumer.js';
import { type CommandEnding, CommandTransitions } from './outcomes/command-transitions.js';
import { ACCEPTED_RESET_REPLY, CommandServiceHarness } from './testing/command-service-harness.js';
import { COUNT_MISMATCHES_SQL } from './testing/count-mismatches.js';

/**
 * Races around commands, each forced into one order with a second session holding a lock (never a sleep): creations
 * sharing an Idempotency-Key, endings written at once by two instances or against the validity's end, answers
 * reported for another tenant's charge point, a lease lapsing while its answer is written, and cursor walks while
 * commands are being created.
 */

const harness = new CommandServiceHarness();
/** A second command-service instance on the same database and NATS (another replica). */
let second: RunningService;
/** The service's own pool: sessions that hold locks, and the lock waiters watched. */
let dataSource: DataSource;

beforeAll(async () => {
  // An offline charge point's command is looked at again only when its validity ends (an hour here) or its charge
  // point connects: nothing but the test touches it between its first attempt and the end of the test.
  await harness.start({ COMMAND_OFFLINE_RECHECK_MS: '3600000' });
  second = await harness.launch({ COMMAND_OFFLINE_RECHECK_MS: '3600000' });
  dataSource = harness.provider(DataSource);
}, 60_000);

afterAll(async () => {
  await second?.app.close();
  await harness.stop();
});

const create = (tenantUuid: string, body: Record<string, unknown>, idempotencyKey?: string) =>
  harness.call<CreatedCommand>(CommandSubjects.create, { body, idempotencyKey }, tenantUuid);

const resetBody = (controllerUuid: string, validForSeconds = 3600, type = 'soft_reset') => ({
  type,
  target_type: 'controller',
  target_uuid: controllerUuid,
  valid_for_seconds: validForSeconds,
});

const read = (tenantUuid: string, uuid: string) =>
  harness.call<CommandView>(CommandSubjects.get, { uuid }, tenantUuid);

const list = (tenantUuid: string, payload: Partial<ListCommandsPayload>) =>
  harness.call<CommandPage>(
    CommandSubjects.list,
    { page: 1, limit: 50, orderBy: [], filter: {}, ...payload },
    tenantUuid,
  );

const OLDEST_FIRST: ListCommandsPayload['orderBy'] = [{ field: 'created_at', direction: 'asc' }];

/**
 * The commands of a whole walk from `page` in the list's order: every page before it (its prev cursors, then theirs)
 * and every page after it (next cursors), each read by cursor.
 */
async function walk(
  tenantUuid: string,
  page: CommandPage,
  request: Partial<ListCommandsPayload>,
): Promise<string[]> {
  const uuids = (of: CommandPage) => of.items.map((command) => command.command_uuid);
  const walked = uuids(page);
  for (let at = page; at.pagination.cursor?.prev !== undefined;) {
    at = await list(tenantUuid, { ...request, cursor: at.pagination.cursor.prev });
    walked.unshift(...uuids(at));
  }
  for (let at = page; at.pagination.cursor?.next !== undefined;) {
    at = await list(tenantUuid, { ...request, cursor: at.pagination.cursor.next });
    walked.push(...uuids(at));
  }
  return walked;
}

async function countMismatches(): Promise<number> {
  const [{ mismatches }] = await harness.sql<{ mismatches: number }>(COUNT_MISMATCHES_SQL);
  return mismatches;
}

/** The delivery columns of a command. */
async function leaseOf(uuid: string) {
  const [row] = await harness.sql<{ owner: string | null; attempts: number; status: string }>(
    'SELECT lease_owner AS owner, attempts, status FROM control.commands WHERE uuid = $1',
    [uuid],
  );
  return row;
}

/**
 * A command to an offline charge point that has had its first attempt (no gateway: it waits for its charge point
 * within its validity, claimed by nobody).
 */
async function waitingCommand(tenantUuid: string, controllerUuid: string): Promise<CommandView> {
  const { command } = await create(tenantUuid, resetBody(controllerUuid));
  await eventually(
    () => leaseOf(command.command_uuid),
    (row) => row.owner === null && row.attempts >= 1,
  );
  return command;
}

/**
 * In `session`, takes (uncommitted) every `pending` count row of the tenant's commands of `type` to controllers: a
 * creation of such a command waits there, after its command row (and its Idempotency-Key) were written.
 */
async function holdPendingCounts(session: QueryRunner, tenantUuid: string, type: string): Promise<void> {
  await session.query(
    `INSERT INTO control.command_counts AS c (tenant_uuid, target_type, type, status, slot, count)
     SELECT $1, 'controller', $2, 'pending', s::smallint, 0 FROM generate_series(0, 31) AS s
     ON CONFLICT (tenant_uuid, target_type, type, status, slot) DO UPDATE SET count = c.count`,
    [tenantUuid, type],
  );
}

/** In `session`, locks the command's row, as a writer changing it holds it until its commit. */
async function holdCommand(session: QueryRunner, uuid: string): Promise<void> {
  await session.query('SELECT 1 FROM control.commands WHERE uuid = $1 FOR UPDATE', [uuid]);
}

const acceptedEnding: CommandEnding = {
  status: 'accepted',
  result: { status: 'Accepted' },
  response: { status: 'Accepted' },
  wasSent: true,
};
const timeoutEnding: CommandEnding = { status: 'timeout', result: {}, wasSent: true };

describe('two creations with one Idempotency-Key at once', () => {
  /**
   * Two creations of `tenant` with one key, the second sent while the first has claimed the key and stored its
   * command and waits for the counts a session holds; the second then waits for the key.
   */
  async function createTwiceAtOnce(
    tenant: string,
    firstBody: Record<string, unknown>,
    secondBody: Record<string, unknown>,
  ) {
    const key = randomUUID();
    const session = await openSession(dataSource);
    let first: Promise<CreatedCommand>;
    let second: Promise<{ value?: CreatedCommand; error?: unknown }>;
    try {
      await holdPendingCounts(session, tenant, 'soft_reset');
      first = create(tenant, firstBody, key);
      await lockWaiters(dataSource, 1);
      second = outcome(create(tenant, secondBody, key));
      await lockWaiters(dataSource, 2);
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    return { first: await first, second: await second };
  }

  const commandsOf = async (tenant: string) => {
    const [{ count }] = await harness.sql<{ count: number }>(
      'SELECT count(*)::int AS count FROM control.commands WHERE tenant_uuid = $1',
      [tenant],
    );
    return count;
  };

  it('with the same body: one command, answered to both, counted once', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const { first, second } = await createTwiceAtOnce(tenant, resetBody(controller), {
      ...resetBody(controller),
    });
    expect(second.error).toBeUndefined();
    expect(first.created).toBe(true);
    expect(second.value).toEqual({ command: first.command, created: false });
    expect(await commandsOf(tenant)).toBe(1);
    expect(await countMismatches()).toBe(0);
  });

  it('with another body: the later is refused with idempotency_key_reused, never a 5xx', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const { first, second } = await createTwiceAtOnce(
      tenant,
      resetBody(controller),
      resetBody(controller, 60),
    );
    expect(first.created).toBe(true);
    const { error } = second;
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(ErrorCode.ValidationFailed);
    expect((error as DomainError).issues).toEqual([
      expect.objectContaining({ parameter: 'Idempotency-Key', errorKey: 'idempotency_key_reused' }),
    ]);
    expect(await commandsOf(tenant)).toBe(1);
  });
});

/** A soft_reset to the controller, as CommandCreationService hands it to CommandInserts. */
function newReset(tenantUuid: string, controllerUuid: string): NewCommand {
  const uuid = randomUUID();
  const event = statusChangedEvent(
    {
      uuid,
      tenant_uuid: tenantUuid,
      controller_uuid: controllerUuid,
      type: 'soft_reset',
      target_type: 'controller',
      target_uuid: controllerUuid,
      status: 'pending',
      result: null,
      created_at: new Date(),
      completed_at: null,
    },
    null,
  );
  return {
    uuid,
    tenantUuid,
    type: 'soft_reset',
    targetType: 'controller',
    targetUuid: controllerUuid,
    controllerUuid,
    target: JSON.stringify({ targetType: 'controller' }),
    parameters: '{}',
    validForSeconds: 3600,
    eventId: event.eventId,
    event: JSON.stringify(event),
    traceparent: null,
  };
}

describe('creations of one charge point arriving together', () => {
  // A group-committed batch is inserted in arrival order (ORDER BY position), each row's created_at read from
  // clock_timestamp() as it is inserted: rows take tens of microseconds here, so no two share a created_at and the
  // uuid never decides the lane's order.
  it('keep their order in the lane, in delivery order and in the list', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const inserts = harness.provider(CommandInserts);
    const session = await openSession(dataSource);
    let stored: Promise<unknown>;
    const commands = Array.from({ length: 40 }, () => newReset(tenant, controller));
    try {
      // Every batch in flight waits (creations of another type, for the count rows this session holds) ...
      await holdPendingCounts(session, tenant, 'clear_cache');
      const blockers = Array.from({ length: 4 }, () => ({
        ...newReset(tenant, harness.addController(tenant)),
        type: 'clear_cache',
      }));
      const blocked = blockers.map((command) => inserts.insert(command));
      await lockWaiters(dataSource, 4);
      // ... so these, in this order as the creations came in, go together in the next statement.
      stored = Promise.all([...blocked, ...commands.map((command) => inserts.insert(command))]);
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    await stored;
    const lane = await harness.sql<{ uuid: string }>(
      'SELECT uuid FROM control.commands WHERE controller_uuid = $1 ORDER BY created_at, uuid',
      [controller],
    );
    const listed = await list(tenant, {
      filter: { target_uuid: controller },
      orderBy: [{ field: 'created_at', direction: 'asc' }],
    });
    expect(lane.map((row) => row.uuid)).toEqual(commands.map((command) => command.uuid));
    expect(listed.items.map((command) => command.command_uuid)).toEqual(
      commands.map((command) => command.uuid),
    );
  });
});

describe('endings racing each other', () => {
  it('the reply and the redelivered call-completed event, written at once by two instances, end it once', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const command = await waitingCommand(tenant, controller);
    const uuid = command.command_uuid;
    const mine = harness.provider(CommandTransitions);
    const theirs = second.app.get(CommandTransitions, { strict: false });
    expect(await mine.markSent(uuid, null)).toBe(true);
    const session = await openSession(dataSource);
    let endings: Promise<{ value?: boolean; error?: unknown }>[];
    try {
      await holdCommand(session, uuid);
      endings = [outcome(mine.finish(uuid, acceptedEnding)), outcome(theirs.finish(uuid, timeoutEnding))];
      await lockWaiters(dataSource, 2);
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    const results = await Promise.all(endings);
    expect(results.map((result) => result.error)).toEqual([undefined, undefined]);
    // Exactly one of them changed the command, and the command shows that one's ending.
    expect(results.filter((result) => result.value === true)).toHaveLength(1);
    const winner = results[0].value ? 'accepted' : 'timeout';
    expect(await read(tenant, uuid)).toMatchObject({ status: winner });
    await eventually(
      () => harness.statusesOf(uuid),
      (statuses) => statuses.includes(winner),
    );
    expect(harness.statusesOf(uuid)).toEqual(['pending', 'sent', winner]);
    expect(await countMismatches()).toBe(0);
  });

  it("an answer racing the end of the command's validity (failed while offline) leaves one ending", async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const command = await waitingCommand(tenant, controller);
    const uuid = command.command_uuid;
    const mine = harness.provider(CommandTransitions);
    const theirs = second.app.get(CommandTransitions, { strict: false });
    const session = await openSession(dataSource);
    let offline: Promise<{ value?: number; error?: unknown }>;
    let answer: Promise<{ value?: boolean; error?: unknown }>;
    try {
      await holdCommand(session, uuid);
      offline = outcome(mine.failPending([uuid], 'charge_point_offline'));
      answer = outcome(theirs.finish(uuid, acceptedEnding));
      await lockWaiters(dataSource, 2);
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    const [failed, answered] = [await offline, await answer];
    expect([failed.error, answered.error]).toEqual([undefined, undefined]);
    expect((failed.value === 1) !== (answered.value === true)).toBe(true);
    const view = await read(tenant, uuid);
    const expected = failed.value === 1 ? ['pending', 'failed'] : ['pending', 'sent', 'accepted'];
    expect(view.status).toBe(expected[expected.length - 1]);
    await eventually(
      () => harness.statusesOf(uuid),
      (statuses) => statuses.includes(view.status),
    );
    expect(harness.statusesOf(uuid)).toEqual(expected);
    expect(await countMismatches()).toBe(0);
  });

  it('a late answer after the command ended (timeout) changes nothing', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const command = await waitingCommand(tenant, controller);
    const uuid = command.command_uuid;
    const consumer = second.app.get(GatewayCallEventsConsumer, { strict: false });
    expect(await harness.provider(CommandTransitions).finish(uuid, timeoutEnding)).toBe(true);
    // The other instance has not seen it end: its late answer goes to the database, whose guard keeps the timeout.
    await consumer.handle(OcppCallEventSubjects.completed, {
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid: tenant,
      data: { commandUuid: uuid, controllerUuid: controller, sentAt: null, reply: ACCEPTED_RESET_REPLY },
    });
    expect(await read(tenant, uuid)).toMatchObject({ status: 'timeout', result: {} });
    expect(await countMismatches()).toBe(0);
  });

  it('a call-sent and the ending, written at once by two instances, move the command once through sent', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const uuid = (await waitingCommand(tenant, controller)).command_uuid;
    const mine = harness.provider(CommandTransitions);
    const theirs = second.app.get(CommandTransitions, { strict: false });
    const session = await openSession(dataSource);
    let writes: Promise<{ value?: boolean; error?: unknown }>[];
    try {
      await holdCommand(session, uuid);
      writes = [outcome(mine.markSent(uuid, null)), outcome(theirs.finish(uuid, acceptedEnding))];
      await lockWaiters(dataSource, 2);
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    const [sent, ending] = await Promise.all(writes);
    expect([sent.error, ending.error]).toEqual([undefined, undefined]);
    expect(ending.value).toBe(true);
    expect(await read(tenant, uuid)).toMatchObject({ status: 'accepted' });
    await eventually(
      () => harness.statusesOf(uuid),
      (statuses) => statuses.includes('accepted'),
    );
    expect(harness.statusesOf(uuid)).toEqual(['pending', 'sent', 'accepted']);
    expect(await countMismatches()).toBe(0);
  });

  // An answer is stored as jsonb, which cannot hold the escape \u0000 that JSON allows in any string (a charge point's
  // null-padded customData or additionalInfo): storedEnding replaces every NUL with U+FFFD before the answer becomes
  // JSON (storableJson), so the ending is written and its result.status is the charge point's.
  it('an answer holding a NUL character in a string still ends the command', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const uuid = (await waitingCommand(tenant, controller)).command_uuid;
    const answer = {
      status: 'Accepted',
      statusInfo: { reasonCode: 'OK', additionalInfo: 'v1.2\u0000\u0000' },
    };
    const ended = await outcome(
      harness.provider(CommandTransitions).finish(uuid, { ...acceptedEnding, response: answer }),
    );
    expect(ended).toEqual({ value: true });
    expect(await read(tenant, uuid)).toMatchObject({
      status: 'accepted',
      result: {
        status: 'Accepted',
        response: {
          status: 'Accepted',
          statusInfo: { reasonCode: 'OK', additionalInfo: 'v1.2\uFFFD\uFFFD' },
        },
      },
    });
  });

  // The same, delivered: the dispatcher's finish() no longer fails on the answer, so the command ends at the first
  // reply and the charge point's next command goes out (and any answer the database still refuses ends its command
  // failed, invalid_response, instead of being asked for again: CommandTransitions.writeBatch).
  it("an answer holding a NUL character does not hold up its charge point's next command", async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const asked: string[] = [];
    const nulAnswer = {
      ...ACCEPTED_RESET_REPLY,
      response: { status: 'Accepted', statusInfo: { reasonCode: 'OK', additionalInfo: 'v1.2\u0000' } },
    } as OcppCallReply;
    let first: string | undefined;
    const gateway = harness.serveCalls(controller, (request) => {
      asked.push(request.commandUuid);
      first ??= request.commandUuid;
      return request.commandUuid === first ? nulAnswer : ACCEPTED_RESET_REPLY;
    });
    try {
      const x = (await create(tenant, resetBody(controller, 600))).command.command_uuid;
      const y = (await create(tenant, resetBody(controller, 600))).command.command_uuid;
      const next = await outcome(
        eventually(
          () => read(tenant, y),
          (view) => view.completed_at !== null,
          { timeoutMs: 5_000 },
        ),
      );
      // Each asked once: the first ended at its first answer, then the second went out.
      expect({
        x: asked.filter((uuid) => uuid === x).length,
        y: asked.filter((uuid) => uuid === y).length,
      }).toEqual({
        x: 1,
        y: 1,
      });
      expect(next.error).toBeUndefined();
    } finally {
      gateway.unsubscribe();
    }
  });

  // The gateway's call-completed event names the tenant and the charge point that answered, and
  // GatewayCallEventsConsumer.handle passes them on (CommandTransitions.reported): applyCommandTransitions locks only
  // commands of that tenant and charge point, so an answer reported by another tenant's (a misrouted or forged
  // event) is logged and dropped, and makes no reservation either.
  it("an answer reported by another tenant's charge point does not end the command", async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const command = await waitingCommand(tenant, controller);
    const otherTenant = randomUUID();
    const otherController = harness.addController(otherTenant);
    await harness.provider(GatewayCallEventsConsumer).handle(OcppCallEventSubjects.completed, {
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid: otherTenant,
      data: {
        commandUuid: command.command_uuid,
        controllerUuid: otherController,
        sentAt: null,
        reply: ACCEPTED_RESET_REPLY,
      },
    });
    expect(await read(tenant, command.command_uuid)).toMatchObject({ status: 'pending', result: null });
  });
});

describe('a lease lapsing while its call is answered', () => {
  it('the command ends once, and the next one of its charge point goes out only after it', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const requests: string[] = [];
    const inFlight = new Set<string>();
    let mostInFlight = 0;
    let answerFirst!: () => void;
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    let first: string | undefined;
    let askedAfterAnswer: string[] = [];
    let answered = false;
    const gateway = harness.serveCalls(controller, async (request): Promise<OcppCallReply> => {
      requests.push(request.commandUuid);
      first ??= request.commandUuid;
      if (answered) askedAfterAnswer.push(request.commandUuid);
      inFlight.add(request.commandUuid);
      mostInFlight = Math.max(mostInFlight, inFlight.size);
      // Every request for the first command (a repeat too: the gateway joins the delivery) waits for its answer.
      if (request.commandUuid === first) await firstAnswered;
      inFlight.delete(request.commandUuid);
      return ACCEPTED_RESET_REPLY;
    });
    try {
      const x = (await create(tenant, resetBody(controller, 600))).command.command_uuid;
      const y = (await create(tenant, resetBody(controller, 600))).command.command_uuid;
      await eventually(
        () => requests.filter((uuid) => uuid === x).length,
        (count) => count === 1,
      );
      // Its instance loses the claim (a stall past the lease): another claim takes the command up again.
      await harness.sql(
        `UPDATE control.commands
            SET lease_owner = 'stalled-instance', lease_until = clock_timestamp() - interval '1 ms',
                next_attempt_at = clock_timestamp()
          WHERE uuid = $1`,
        [x],
      );
      await eventually(
        () => requests.filter((uuid) => uuid === x).length,
        (count) => count === 2,
      );
      expect(requests).toEqual([x, x]);
      answered = true;
      askedAfterAnswer = [];
      answerFirst();
      await eventually(
        () => read(tenant, y),
        (view) => view.completed_at !== null,
      );
      expect(await read(tenant, x)).toMatchObject({ status: 'accepted' });
      expect(await read(tenant, y)).toMatchObject({ status: 'accepted' });
      // Never two commands out to the charge point at once, and the second only after the first was answered.
      expect(mostInFlight).toBe(1);
      expect(requests).toEqual([x, x, y]);
      expect(askedAfterAnswer).toEqual([y]);
      await eventually(
        () => harness.statusesOf(x),
        (statuses) => statuses.includes('accepted'),
      );
      expect(harness.statusesOf(x)).toEqual(['pending', 'sent', 'accepted']);
      expect(await countMismatches()).toBe(0);
    } finally {
      gateway.unsubscribe();
    }
  });
});

describe('cursor walks while commands are created', () => {
  it('newest first: repeats nothing and skips none of the commands there before the walk', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const before: string[] = [];
    for (let index = 0; index < 7; index++) {
      before.push((await create(tenant, resetBody(controller))).command.command_uuid);
    }
    const walked: string[] = [];
    let page = await list(tenant, { limit: 2 });
    for (;;) {
      walked.push(...page.items.map((command) => command.command_uuid));
      // Created between two pages of the walk, concurrently with the next page's read.
      const creations = Promise.all([
        create(tenant, resetBody(controller)),
        create(tenant, resetBody(controller)),
      ]);
      const next = page.pagination.cursor?.next;
      if (!next) {
        await creations;
        break;
      }
      [page] = await Promise.all([list(tenant, { limit: 2, cursor: next }), creations]);
    }
    expect(walked).toEqual([...before].reverse());
  });

  it("refuses another tenant's cursor, and never shows that tenant's commands", async () => {
    const tenant = randomUUID();
    const other = randomUUID();
    const controller = harness.addController(tenant);
    for (let index = 0; index < 3; index++) await create(tenant, resetBody(controller));
    const page = await list(tenant, { limit: 1 });
    const { error } = await outcome(list(other, { limit: 1, cursor: page.pagination.cursor?.next }));
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).issues).toEqual([
      expect.objectContaining({ parameter: 'cursor', errorKey: 'invalid_cursor' }),
    ]);
  });

  // created_at is stamped (clock_timestamp()) when the command row is inserted, but the row becomes visible only at
  // the commit, after the statement's outbox and count upserts (commands.repository.ts insertCommandsSql, counts
  // last), which can wait for another transaction's count rows, and after the rest of a group-committed batch.
  // A page ends before the visibility horizon (commandsVisibilityHorizon: the start of the oldest command insert in
  // flight), so its last key never passes such a row: the page may be short, and its cursors lead on to the rest.
  it('oldest first: a command whose creation commits after a page stamped before it is not skipped', async () => {
    const tenant = randomUUID();
    const late = harness.addController(tenant);
    const controller = harness.addController(tenant);
    const oldest = (await create(tenant, resetBody(controller))).command.command_uuid;
    const session = await openSession(dataSource);
    let lateCreation: Promise<CreatedCommand>;
    let firstPage: CommandPage;
    let created: string[];
    try {
      await holdPendingCounts(session, tenant, 'clear_cache');
      // Its row is written (created_at stamped); its statement waits for the count rows.
      lateCreation = create(tenant, resetBody(late, 3600, 'clear_cache'));
      await lockWaiters(dataSource, 1, insertMarker('control.commands'));
      created = [];
      for (let index = 0; index < 2; index++) {
        created.push((await create(tenant, resetBody(controller))).command.command_uuid);
      }
      firstPage = await list(tenant, { limit: 2, orderBy: OLDEST_FIRST });
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    const lateUuid = (await lateCreation).command.command_uuid;
    // Only the command stamped before the insert in flight: the rest are held back, and next leads to them.
    expect(firstPage.items.map((command) => command.command_uuid)).toEqual([oldest]);
    expect(firstPage.pagination).toMatchObject({ has_more: true });
    const walked = await walk(tenant, firstPage, { limit: 2, orderBy: OLDEST_FIRST });
    // Every command of the tenant, in the list's order, is what a walk over all its pages shows.
    const all = await list(tenant, { orderBy: OLDEST_FIRST });
    expect(all.items.map((command) => command.command_uuid)).toEqual([oldest, lateUuid, ...created]);
    expect(walked).toEqual([oldest, lateUuid, ...created]);
  });

  it('newest first: a command whose creation commits after a page stamped before it is not skipped', async () => {
    const tenant = randomUUID();
    const late = harness.addController(tenant);
    const controller = harness.addController(tenant);
    const older: string[] = [];
    for (let index = 0; index < 2; index++) {
      older.push((await create(tenant, resetBody(controller))).command.command_uuid);
    }
    const session = await openSession(dataSource);
    let lateCreation: Promise<CreatedCommand>;
    let firstPage: CommandPage;
    let newest: string;
    try {
      await holdPendingCounts(session, tenant, 'clear_cache');
      lateCreation = create(tenant, resetBody(late, 3600, 'clear_cache'));
      await lockWaiters(dataSource, 1, insertMarker('control.commands'));
      newest = (await create(tenant, resetBody(controller))).command.command_uuid;
      // Without the horizon this page is the newest and the older of those before it, its next cursor below the
      // late command's key.
      firstPage = await list(tenant, { limit: 2 });
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    const lateUuid = (await lateCreation).command.command_uuid;
    expect(firstPage.items.map((command) => command.command_uuid)).toEqual([...older].reverse());
    // The commands held back are newer than the page: its prev cursor leads to them.
    expect(firstPage.pagination.cursor?.prev).toBeDefined();
    const walked = await walk(tenant, firstPage, { limit: 2 });
    const all = await list(tenant, {});
    expect(all.items.map((command) => command.command_uuid)).toEqual([
      newest,
      lateUuid,
      ...[...older].reverse(),
    ]);
    expect(walked).toEqual([newest, lateUuid, ...[...older].reverse()]);
  });
});
