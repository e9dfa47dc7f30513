import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CommandSubjects, type CommandView, type CreatedCommand } from '@cpc/contracts';
import { poolOf } from '@cpc/database';
import { eventually, lockWaiters, openSession } from '@cpc/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DELIVERY_CONNECTION } from '../delivery-connection.js';
import { CommandServiceHarness } from '../testing/command-service-harness.js';
import { type CommandEnding, CommandTransitions, type TransitionOutcome } from './command-transitions.js';

/**
 * What CommandTransitions writes when an ending's data is more than the database takes, and when a gateway event
 * reports a command for a charge point that is not its own.
 */

const harness = new CommandServiceHarness();
let transitions: CommandTransitions;
let dataSource: DataSource;

beforeAll(async () => {
  // Nothing but the test touches a command of an offline charge point after its first attempt.
  await harness.start({ COMMAND_OFFLINE_RECHECK_MS: '3600000' });
  transitions = harness.provider(CommandTransitions);
  dataSource = harness.provider(DataSource);
}, 60_000);

afterAll(async () => {
  await harness.stop();
});

const read = (tenantUuid: string, uuid: string) =>
  harness.call<CommandView>(CommandSubjects.get, { uuid }, tenantUuid);

/** A soft_reset to an offline charge point after its first attempt: pending, claimed by nobody. */
async function waitingCommand(tenantUuid: string, controllerUuid: string): Promise<string> {
  const { command } = await harness.call<CreatedCommand>(
    CommandSubjects.create,
    {
      body: {
        type: 'soft_reset',
        target_type: 'controller',
        target_uuid: controllerUuid,
        valid_for_seconds: 3600,
      },
    },
    tenantUuid,
  );
  await eventually(
    () =>
      harness.sql<{ owner: string | null; attempts: number }>(
        'SELECT lease_owner AS owner, attempts FROM control.commands WHERE uuid = $1',
        [command.command_uuid],
      ),
    ([row]) => row.owner === null && row.attempts >= 1,
  );
  return command.command_uuid;
}

const answered = (response: unknown): CommandEnding => ({
  status: 'accepted',
  result: { status: 'Accepted' },
  response,
  wasSent: true,
});

/**
 * Runs `during` while a batch about another command waits for that command's row (held by a session of the test):
 * transitions queued meanwhile go together into the next batch, and one answered meanwhile was answered from memory.
 */
async function whileAWriteWaits<T>(during: () => T | Promise<T>): Promise<T> {
  const tenant = randomUUID();
  const blocker = await waitingCommand(tenant, harness.addController(tenant));
  const session = await openSession(dataSource);
  let blocked: Promise<boolean> | undefined;
  try {
    await session.query('SELECT 1 FROM control.commands WHERE uuid = $1 FOR UPDATE', [blocker]);
    blocked = transitions.finish(blocker, { status: 'timeout', result: {}, wasSent: true });
    await lockWaiters(dataSource, 1);
    return await during();
  } finally {
    await session.commitTransaction();
    await session.release();
    await blocked;
  }
}

/** The transitions `queue` asks for, written in one batch. */
async function inOneBatch<T>(queue: () => Promise<T>[]): Promise<T[]> {
  return Promise.all(await whileAWriteWaits(queue));
}

describe('an ending whose data the database refuses', () => {
  // A lone surrogate is valid in a JS string and in JSON text, not in jsonb: a data exception, as NUL was.
  it('ends its command failed with invalid_response, without the answer, and its charge point moves on', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const uuid = await waitingCommand(tenant, controller);
    expect(await transitions.finish(uuid, answered({ status: 'Accepted', note: 'x\ud800' }))).toBe(true);
    expect(await read(tenant, uuid)).toEqual(
      expect.objectContaining({ status: 'failed', result: { error: 'invalid_response' } }),
    );
    await eventually(
      () => harness.statusesOf(uuid),
      (statuses) => statuses.includes('failed'),
    );
    expect(harness.statusesOf(uuid)).toEqual(['pending', 'sent', 'failed']);
  });

  it('in a batch with others: only that one fails, the others end as answered', async () => {
    const tenant = randomUUID();
    const [bad, good] = [
      await waitingCommand(tenant, harness.addController(tenant)),
      await waitingCommand(tenant, harness.addController(tenant)),
    ];
    const results = await inOneBatch(() => [
      transitions.finish(bad, answered({ status: 'Accepted', note: '\udc00' })),
      transitions.finish(good, answered({ status: 'Accepted' })),
    ]);
    expect(results).toEqual([true, true]);
    expect(await read(tenant, bad)).toMatchObject({
      status: 'failed',
      result: { error: 'invalid_response' },
    });
    expect(await read(tenant, good)).toMatchObject({
      status: 'accepted',
      result: { status: 'Accepted', response: { status: 'Accepted' } },
    });
  });
});

describe('a transition reported by a charge point', () => {
  it('changes a command of that charge point only', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const uuid = await waitingCommand(tenant, controller);
    const otherTenant = randomUUID();
    const own = { tenantUuid: tenant, controllerUuid: controller };
    const foreign: TransitionOutcome[] = [
      await transitions.reported(
        uuid,
        { sentAt: null },
        { tenantUuid: otherTenant, controllerUuid: controller },
      ),
      await transitions.reported(
        uuid,
        { sentAt: null },
        { tenantUuid: tenant, controllerUuid: harness.addController(tenant) },
      ),
    ];
    expect(foreign).toEqual(['foreign', 'foreign']);
    expect(await read(tenant, uuid)).toMatchObject({ status: 'pending' });
    expect(await transitions.reported(uuid, { sentAt: null }, own)).toBe('changed');
    expect(await transitions.reported(uuid, { sentAt: null, ending: answered({}) }, own)).toBe('changed');
    expect(await read(tenant, uuid)).toMatchObject({ status: 'accepted' });
  });

  it('with a foreign report and its own one in one batch: the foreign refused, its own applied', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const uuid = await waitingCommand(tenant, controller);
    const timeout: CommandEnding = { status: 'timeout', result: {}, wasSent: true };
    const outcomes = await inOneBatch(() => [
      transitions.reported(
        uuid,
        { sentAt: null, ending: timeout },
        { tenantUuid: randomUUID(), controllerUuid: controller },
      ),
      transitions.reported(
        uuid,
        { sentAt: null, ending: answered({ status: 'Accepted' }) },
        { tenantUuid: tenant, controllerUuid: controller },
      ),
    ]);
    expect(outcomes).toEqual(['foreign', 'changed']);
    expect(await read(tenant, uuid)).toMatchObject({ status: 'accepted' });
  });

  it('after the command ended here: its own report is answered from memory, a foreign one still checked', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const uuid = await waitingCommand(tenant, controller);
    expect(await transitions.finish(uuid, answered({ status: 'Accepted' }))).toBe(true);
    const ending = answered({ status: 'Accepted' });
    const foreign = await whileAWriteWaits(async () => {
      // Answered while the writer waits: not queued.
      expect(
        await transitions.reported(
          uuid,
          { sentAt: null, ending },
          { tenantUuid: tenant, controllerUuid: controller },
        ),
      ).toBe('unchanged');
      return [
        transitions.reported(
          uuid,
          { sentAt: null, ending },
          { tenantUuid: randomUUID(), controllerUuid: controller },
        ),
      ];
    });
    expect(await Promise.all(foreign)).toEqual(['foreign']);
    expect(await read(tenant, uuid)).toMatchObject({ status: 'accepted' });
  });
});

describe('a report queued while its command is being ended', () => {
  it('is answered unchanged once that ending commits, without a statement of its own', async () => {
    const tenant = randomUUID();
    const controller = harness.addController(tenant);
    const uuid = await waitingCommand(tenant, controller);
    // Transitions are written on the delivery path's own pool.
    const delivery = harness.provider<DataSource>(getDataSourceToken(DELIVERY_CONNECTION) as string);
    const statements = jest.spyOn(poolOf(delivery), 'query');
    const session = await openSession(dataSource);
    try {
      await session.query('SELECT 1 FROM control.commands WHERE uuid = $1 FOR UPDATE', [uuid]);
      // The dispatcher's ending (the gateway's reply) waits for the row; the durable call-completed event comes.
      const ended = transitions.finish(uuid, answered({ status: 'Accepted' }));
      await lockWaiters(dataSource, 1);
      const report = transitions.reported(
        uuid,
        { sentAt: null, ending: answered({ status: 'Accepted' }) },
        { tenantUuid: tenant, controllerUuid: controller },
      );
      await session.commitTransaction();
      expect(await ended).toBe(true);
      expect(await report).toBe('unchanged');
    } finally {
      if (session.isTransactionActive) await session.rollbackTransaction();
      await session.release();
    }
    const calls = statements.mock.calls;
    statements.mockRestore();
    const transitionStatements = calls.filter(
      ([query]) => (query as unknown as { name?: string }).name === 'commands.apply-transitions',
    );
    expect(transitionStatements).toHaveLength(1);
    expect(await read(tenant, uuid)).toMatchObject({ status: 'accepted' });
  });
});
