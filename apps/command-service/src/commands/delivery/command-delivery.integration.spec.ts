import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  AssetsSubjects,
  ChargePointEventSubjects,
  CommandSubjects,
  type CommandView,
  type CreatedCommand,
  OcppCallEventSubjects,
  type OcppCallReply,
  type OcppCallRequest,
  UUID_PATTERN,
} from '@cpc/contracts';
import { eventually } from '@cpc/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { DELIVERY_CONNECTION } from '../delivery-connection.js';
import { CommandTransitions } from '../outcomes/command-transitions.js';
import { ACCEPTED_RESET_REPLY, CommandServiceHarness } from '../testing/command-service-harness.js';
import { COUNT_MISMATCHES_SQL } from '../testing/count-mismatches.js';
import type { ClaimedCommand } from '../command-row.js';
import { ChargePointLifecycleConsumer } from './charge-point-lifecycle.consumer.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DispatchSignal } from './dispatch-signal.js';

const harness = new CommandServiceHarness();
const tenant: string = randomUUID();

const accepted = ACCEPTED_RESET_REPLY;

async function create(body: Record<string, unknown>): Promise<CommandView> {
  const { command } = await harness.call<CreatedCommand>(CommandSubjects.create, { body }, tenant);
  return command;
}

const resetOf = (controllerUuid: string, validForSeconds = 0) =>
  create({
    type: 'soft_reset',
    target_type: 'controller',
    target_uuid: controllerUuid,
    valid_for_seconds: validForSeconds,
  });

const read = (uuid: string) => harness.call<CommandView>(CommandSubjects.get, { uuid }, tenant);

const ended = (uuid: string) =>
  eventually(
    () => read(uuid),
    (command) => command.completed_at !== null,
  );

beforeAll(() => harness.start(), 60_000);
afterAll(() => harness.stop());

describe('delivering commands to the gateway', () => {
  it('asks the gateway with the stored command and ends it with the answer: pending → sent → accepted', async () => {
    const controllerUuid = harness.addController(tenant);
    const requests: OcppCallRequest[] = [];
    const gateway = harness.serveCalls(controllerUuid, (request) => {
      requests.push(request);
      return accepted;
    });
    const command = await resetOf(controllerUuid);
    const done = await ended(command.command_uuid);
    expect(done).toEqual({
      ...command,
      status: 'accepted',
      result: { status: 'Accepted', response: { status: 'Accepted' } },
      completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(requests).toEqual([
      {
        commandUuid: command.command_uuid,
        type: 'soft_reset',
        parameters: {},
        target: { targetType: 'controller' },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
    await eventually(
      () => harness.statusesOf(command.command_uuid),
      (statuses) => statuses.length === 3,
    );
    expect(harness.statusesOf(command.command_uuid)).toEqual(['pending', 'sent', 'accepted']);
    // The events of a batch of transitions are built in SQL: the same envelope as the creation's, field for field.
    const events = harness.statusEvents.filter(
      (event) => event.data.command.command_uuid === command.command_uuid,
    );
    const sentView = { ...command, status: 'sent' };
    expect(events.slice(1)).toEqual(
      [
        { command: sentView, previousStatus: 'pending' },
        // Status events never carry the answer.
        { command: { ...done, result: { status: 'Accepted' } }, previousStatus: 'sent' },
      ].map((data) => ({
        eventId: expect.stringMatching(UUID_PATTERN),
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        tenantUuid: tenant,
        data: { ...data, controllerUuid },
      })),
    );
    expect(new Set(events.map((event) => event.eventId)).size).toBe(3);
    gateway.unsubscribe();
  });

  it('turns each kind of final reply into its status and result', async () => {
    const controllerUuid = harness.addController(tenant);
    const replies: OcppCallReply[] = [
      {
        outcome: 'answered',
        action: 'Reset',
        response: { status: 'Rejected' },
        status: 'rejected',
        resultStatus: 'Rejected',
      },
      {
        outcome: 'call_error',
        action: 'Reset',
        code: 'NotImplemented',
        description: '',
        error: 'ocpp_not_implemented',
      },
      { outcome: 'timeout', action: 'Reset' },
      { outcome: 'connection_lost', action: 'Reset' },
      { outcome: 'invalid_response', action: 'Reset', description: 'no status' },
      { outcome: 'invalid_command', error: 'invalid_target', description: 'no EVSE' },
      {
        outcome: 'answered',
        action: 'Reset',
        response: { status: 'Accepted', customData: { vendorId: 'x'.repeat(70_000) } },
        status: 'accepted',
        resultStatus: 'Accepted',
      },
    ];
    const expected = [
      ['rejected', { status: 'Rejected', response: { status: 'Rejected' } }],
      ['failed', { error: 'ocpp_not_implemented' }],
      ['timeout', {}],
      ['failed', { error: 'connection_lost' }],
      ['failed', { error: 'invalid_response' }],
      ['failed', { error: 'invalid_target' }],
      // Over maxStoredResponseBytes: the size instead of the answer.
      ['accepted', { status: 'Accepted', response_omitted_bytes: 70_050 }],
    ];
    let next = 0;
    const gateway = harness.serveCalls(controllerUuid, () => replies[next++]);
    for (const [status, result] of expected) {
      const command = await resetOf(controllerUuid);
      const done = await ended(command.command_uuid);
      expect([done.status, done.result]).toEqual([status, result]);
    }
    gateway.unsubscribe();
  });

  it('tries again after a not_sent reply', async () => {
    const controllerUuid = harness.addController(tenant);
    let attempts = 0;
    const gateway = harness.serveCalls(controllerUuid, () =>
      ++attempts < 3 ? { outcome: 'not_sent', reason: 'charge_point_busy', description: 'busy' } : accepted,
    );
    const command = await resetOf(controllerUuid);
    expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
    expect(attempts).toBe(3);
    gateway.unsubscribe();
  });

  it('keeps a command it is delivering due again only when its claim ends, renewed or its lane woken', async () => {
    const controllerUuid = harness.addController(tenant);
    interface Lease {
      owner: string;
      leased_for_ms: number;
      due_at_lease_end: boolean;
    }
    const leaseOf = async (uuid: string) =>
      (
        await harness.sql<Lease>(
          `SELECT lease_owner AS owner, next_attempt_at = lease_until AS due_at_lease_end,
                  (extract(epoch FROM lease_until - clock_timestamp()) * 1000)::int AS leased_for_ms
             FROM control.commands WHERE uuid = $1`,
          [uuid],
        )
      )[0];
    const seen: Lease[] = [];
    const queue = harness.provider(DeliveryQueue);
    const renew = queue.renew.bind(queue);
    // The dispatcher's own renewals (every lease/3) would set the lease back to its 2 s between renewal and read.
    const periodicRenewals = jest.spyOn(queue, 'renew').mockResolvedValue(undefined);
    const gateway = harness.serveCalls(controllerUuid, async (request) => {
      const claimed = await leaseOf(request.commandUuid);
      await renew(claimed.owner, [request.commandUuid], 600_000);
      // What a connected event does: the lane's waiting commands become due, the one being delivered does not.
      await queue.wakeLanes([controllerUuid]);
      seen.push(claimed, await leaseOf(request.commandUuid));
      return accepted;
    });
    const command = await resetOf(controllerUuid);
    expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
    const [claimed, renewed] = seen;
    expect(claimed).toMatchObject({ due_at_lease_end: true });
    expect(claimed.leased_for_ms).toBeGreaterThan(0);
    expect(renewed).toMatchObject({ owner: claimed.owner, due_at_lease_end: true });
    expect(renewed.leased_for_ms).toBeGreaterThan(590_000);
    periodicRenewals.mockRestore();
    gateway.unsubscribe();
  });
});

describe('leases at creation', () => {
  const leaseOf = async (uuid: string) =>
    (
      await harness.sql<{ owner: string | null; attempts: number; due_at_lease_end: boolean }>(
        `SELECT lease_owner AS owner, attempts, next_attempt_at = lease_until AS due_at_lease_end
           FROM control.commands WHERE uuid = $1`,
        [uuid],
      )
    )[0];

  /** The uuids the running instance's claims returned, while the returned function is not called. */
  const watchClaims = () => {
    const queue = harness.provider(DeliveryQueue);
    const claimDue = queue.claimDue.bind(queue);
    const claimed: string[] = [];
    const spy = jest.spyOn(queue, 'claimDue').mockImplementation(async (...args) => {
      const rows = await claimDue(...args);
      claimed.push(...rows.map((row) => row.uuid));
      return rows;
    });
    return { claimed, stop: () => spy.mockRestore() };
  };

  it('stores a command for a charge point with no open command leased to this instance, which delivers it unclaimed', async () => {
    const controllerUuid = harness.addController(tenant);
    const claims = watchClaims();
    const leases: Awaited<ReturnType<typeof leaseOf>>[] = [];
    const gateway = harness.serveCalls(controllerUuid, async (request) => {
      leases.push(await leaseOf(request.commandUuid));
      return accepted;
    });
    try {
      const command = await resetOf(controllerUuid);
      expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
      expect(leases).toEqual([
        { owner: expect.stringMatching(new RegExp(`^${hostname()}/`)), attempts: 1, due_at_lease_end: true },
      ]);
      expect(claims.claimed).not.toContain(command.command_uuid);
    } finally {
      claims.stop();
      gateway.unsubscribe();
    }
  });

  /**
   * A charge point whose first call is answered only when the test says so, the others at once; `createTwo` creates
   * a command, and a second one once the first is being delivered.
   */
  const holdingFirstCall = (controllerUuid: string) => {
    let answerFirst!: () => void;
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    const calls: string[] = [];
    const leases: Awaited<ReturnType<typeof leaseOf>>[] = [];
    const gateway = harness.serveCalls(controllerUuid, async (request) => {
      calls.push(request.commandUuid);
      leases.push(await leaseOf(request.commandUuid));
      if (calls.length === 1) await firstAnswered;
      return accepted;
    });
    const createTwo = async () => {
      const first = await resetOf(controllerUuid, 600);
      await eventually(
        () => calls.length,
        (count) => count === 1,
      );
      return { first, second: await resetOf(controllerUuid, 600) };
    };
    return { calls, leases, answerFirst, createTwo, stop: () => gateway.unsubscribe() };
  };

  it("stores a command behind an open one of its charge point unleased, and hands it over at that one's ending", async () => {
    const controllerUuid = harness.addController(tenant);
    const chargePoint = holdingFirstCall(controllerUuid);
    const claims = watchClaims();
    try {
      const { first, second } = await chargePoint.createTwo();
      expect(await leaseOf(second.command_uuid)).toMatchObject({ owner: null, attempts: 0 });
      chargePoint.answerFirst();
      for (const command of [first, second]) {
        expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
      }
      expect(chargePoint.calls).toEqual([first.command_uuid, second.command_uuid]);
      // The statement that ended the first leased the second to this instance: no claim took it.
      expect(chargePoint.leases[1]).toEqual({
        owner: expect.stringMatching(new RegExp(`^${hostname()}/`)),
        attempts: 1,
        due_at_lease_end: true,
      });
      expect(claims.claimed).not.toContain(second.command_uuid);
    } finally {
      claims.stop();
      chargePoint.stop();
    }
  });

  it('leaves the next command to a claim when another transaction is deciding the lane at the ending', async () => {
    const controllerUuid = harness.addController(tenant);
    const chargePoint = holdingFirstCall(controllerUuid);
    const claims = watchClaims();
    try {
      const { first, second } = await chargePoint.createTwo();
      const lock = await harness.holdLaneLock(controllerUuid);
      try {
        chargePoint.answerFirst();
        expect(await ended(first.command_uuid)).toMatchObject({ status: 'accepted' });
        // Not handed over, and every claim meanwhile passes the lane over.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await leaseOf(second.command_uuid)).toMatchObject({ owner: null, attempts: 0 });
      } finally {
        await lock.release();
      }
      expect(await ended(second.command_uuid)).toMatchObject({ status: 'accepted' });
      expect(chargePoint.calls).toEqual([first.command_uuid, second.command_uuid]);
      expect(claims.claimed).toContain(second.command_uuid);
    } finally {
      claims.stop();
      chargePoint.stop();
    }
  });

  it('passes over a charge point whose lane another transaction is deciding, in creation and in claims', async () => {
    const controllerUuid = harness.addController(tenant);
    const calls: string[] = [];
    const gateway = harness.serveCalls(controllerUuid, (request) => {
      calls.push(request.commandUuid);
      return accepted;
    });
    const lock = await harness.holdLaneLock(controllerUuid);
    let command: CommandView;
    try {
      command = await resetOf(controllerUuid, 600);
      expect(await leaseOf(command.command_uuid)).toMatchObject({ owner: null, attempts: 0 });
      // It is due, and claims run at every poll (100 ms here): each passes the lane over.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(calls).toEqual([]);
    } finally {
      await lock.release();
    }
    expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
    expect(calls).toEqual([command.command_uuid]);
    gateway.unsubscribe();
  });
});

describe('offline charge points', () => {
  it('fails a command without validity at once: charge_point_offline', async () => {
    const command = await resetOf(harness.addController(tenant));
    expect(await ended(command.command_uuid)).toMatchObject({
      status: 'failed',
      result: { error: 'charge_point_offline' },
    });
    await eventually(
      () => harness.statusesOf(command.command_uuid),
      (statuses) => statuses.length === 2,
    );
    expect(harness.statusesOf(command.command_uuid)).toEqual(['pending', 'failed']);
  });

  it('fails a waiting command when its validity ends', async () => {
    const command = await resetOf(harness.addController(tenant), 1);
    expect((await read(command.command_uuid)).status).toBe('pending');
    expect(await ended(command.command_uuid)).toMatchObject({
      status: 'failed',
      result: { error: 'charge_point_offline' },
    });
  });

  it('delivers waiting commands one at a time in creation order once the charge point connects', async () => {
    const controllerUuid = harness.addController(tenant);
    const plugUuid = harness.addPlug(tenant, controllerUuid, 1);
    const created: string[] = [];
    for (let index = 0; index < 4; index++) {
      const command =
        index % 2 === 0
          ? await resetOf(controllerUuid, 600)
          : await create({
              type: 'unlock',
              target_type: 'connector',
              target_uuid: plugUuid,
              valid_for_seconds: 600,
            });
      created.push(command.command_uuid);
    }
    // A command without validity behind waiting ones still fails at once while the charge point is offline.
    const impatient = await resetOf(controllerUuid);
    expect(await ended(impatient.command_uuid)).toMatchObject({ result: { error: 'charge_point_offline' } });

    const delivered: string[] = [];
    let running = 0;
    let mostAtOnce = 0;
    harness.serveCalls(controllerUuid, async (request) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      delivered.push(request.commandUuid);
      running -= 1;
      return accepted;
    });
    await harness.publish(ChargePointEventSubjects.connected, tenant, {
      controllerUuid,
      ocppIdentity: 'CP',
      protocol: 'ocpp1.6',
      gatewayInstance: 'gw',
      connectedAt: new Date().toISOString(),
    });
    for (const uuid of created) expect((await ended(uuid)).status).toBe('accepted');
    expect(delivered).toEqual(created);
    expect(mostAtOnce).toBe(1);
  });

  it('wakes the waiting commands of a batch of connected charge points in one statement, but not one being delivered', async () => {
    const consumer = harness.provider(ChargePointLifecycleConsumer);
    const connectedEvent = (data: Record<string, unknown>) => ({
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid: tenant,
      data,
    });
    const [first, second, delivering, idle] = Array.from({ length: 4 }, () => harness.addController(tenant));
    const lanes = [first, second, delivering];
    const created: Record<string, string[]> = { [first]: [], [second]: [], [delivering]: [] };
    for (const controllerUuid of [first, first, second, delivering, delivering]) {
      created[controllerUuid].push((await resetOf(controllerUuid, 600)).command_uuid);
    }
    // No claim takes these lanes while the test looks at them; the attempts running now end (offline, deferred).
    const locks = await Promise.all(lanes.map((controllerUuid) => harness.holdLaneLock(controllerUuid)));
    const gateways: { unsubscribe(): void }[] = [];
    try {
      await eventually(
        () =>
          harness.sql<{ leased: string }>(
            `SELECT count(*) AS leased FROM control.commands WHERE controller_uuid = ANY($1) AND lease_owner IS NOT NULL`,
            [lanes],
          ),
        ([row]) => row.leased === '0',
      );
      // Every lane waits for a later time; the head of one is being delivered (as a claim leaves it).
      await harness.sql(
        `UPDATE control.commands SET next_attempt_at = now() + interval '1 hour' WHERE controller_uuid = ANY($1)`,
        [lanes],
      );
      const [deliveringHead] = created[delivering];
      await harness.sql(
        `UPDATE control.commands
            SET lease_owner = 'another instance', lease_until = now() + interval '1 minute',
                next_attempt_at = now() + interval '1 minute'
          WHERE uuid = $1`,
        [deliveringHead],
      );

      const wakeLanes = jest.spyOn(harness.provider(DeliveryQueue), 'wakeLanes');
      const notify = jest.spyOn(harness.provider(DispatchSignal), 'notify');
      try {
        await consumer.connected([
          connectedEvent({ controllerUuid: first }),
          connectedEvent({ controllerUuid: idle }),
          connectedEvent({ controllerUuid: 'not-a-uuid' }),
          connectedEvent({}),
          connectedEvent({ controllerUuid: second }),
          connectedEvent({ controllerUuid: first }),
          connectedEvent({ controllerUuid: delivering }),
        ]);
        expect(wakeLanes).toHaveBeenCalledTimes(1);
        expect(wakeLanes).toHaveBeenCalledWith([first, idle, second, delivering]);
        expect(notify).toHaveBeenCalledTimes(1);
        const due = await harness.sql<{ uuid: string; due: boolean }>(
          `SELECT uuid, next_attempt_at <= clock_timestamp() AS due FROM control.commands WHERE controller_uuid = ANY($1)`,
          [lanes],
        );
        expect(Object.fromEntries(due.map((row) => [row.uuid, row.due]))).toEqual({
          ...Object.fromEntries(Object.values(created).flatMap((uuids) => uuids.map((uuid) => [uuid, true]))),
          [deliveringHead]: false,
        });

        // Nothing waits: no claim (in a reconnect storm, nearly every charge point).
        await consumer.connected([connectedEvent({ controllerUuid: idle })]);
        expect(notify).toHaveBeenCalledTimes(1);
      } finally {
        wakeLanes.mockRestore();
        notify.mockRestore();
      }

      // The lanes are delivered after all, so nothing is left waiting for the next tests.
      await harness.sql(
        `UPDATE control.commands SET lease_owner = NULL, lease_until = NULL, next_attempt_at = now() WHERE uuid = $1`,
        [deliveringHead],
      );
      for (const controllerUuid of lanes) gateways.push(harness.serveCalls(controllerUuid, () => accepted));
    } finally {
      for (const lock of locks) await lock.release();
    }
    for (const uuid of Object.values(created).flat()) {
      expect(await ended(uuid)).toMatchObject({ status: 'accepted' });
    }
    for (const gateway of gateways) gateway.unsubscribe();
  });
});

describe('unanswered requests', () => {
  it('never calls a command offline after a request that may have delivered it went unanswered', async () => {
    const controllerUuid = harness.addController(tenant);
    let requests = 0;
    // The gateway takes the request and dies with it: no reply; afterwards the charge point stays away.
    const gateway = harness.serveCalls(controllerUuid, () => {
      requests += 1;
      gateway.unsubscribe();
      return undefined;
    });
    const command = await resetOf(controllerUuid, 1);
    expect(await ended(command.command_uuid)).toMatchObject({
      status: 'failed',
      result: { error: 'connection_lost' },
    });
    expect(requests).toBe(1);
  });
});

describe('outcomes from the event stream', () => {
  it('takes sent and the outcome from the gateway events when no reply arrives, and keeps the first ending', async () => {
    const controllerUuid = harness.addController(tenant);
    const gateway = harness.serveCalls(controllerUuid, () => undefined);
    const command = await resetOf(controllerUuid);
    const sentAt = new Date().toISOString();
    await harness.publish(OcppCallEventSubjects.sent, tenant, {
      commandUuid: command.command_uuid,
      controllerUuid,
      sentAt,
    });
    await eventually(
      () => read(command.command_uuid),
      (view) => view.status === 'sent',
    );
    const completed = { commandUuid: command.command_uuid, controllerUuid, sentAt, reply: accepted };
    await harness.publish(OcppCallEventSubjects.completed, tenant, completed);
    expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
    // A late or repeated event with another outcome, and a late sent, change nothing.
    await harness.publish(OcppCallEventSubjects.completed, tenant, {
      ...completed,
      reply: { outcome: 'timeout', action: 'Reset' },
    });
    await harness.publish(OcppCallEventSubjects.sent, tenant, { commandUuid: command.command_uuid, sentAt });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await read(command.command_uuid)).toMatchObject({
      status: 'accepted',
      result: { status: 'Accepted' },
    });
    expect(harness.statusesOf(command.command_uuid)).toEqual(['pending', 'sent', 'accepted']);
    gateway.unsubscribe();
  });

  it('answers a late ending or call-sent of a command it ended without going to the database', async () => {
    const controllerUuid = harness.addController(tenant);
    const gateway = harness.serveCalls(controllerUuid, () => accepted);
    const command = await resetOf(controllerUuid);
    await ended(command.command_uuid);
    const transitions = harness.provider(CommandTransitions);
    const delivery = harness.provider<DataSource>(getDataSourceToken(DELIVERY_CONNECTION) as string);
    const transaction = jest.spyOn(delivery, 'transaction');
    try {
      const late = { status: 'timeout', result: { error: 'timeout' }, wasSent: true } as const;
      expect(await transitions.finish(command.command_uuid, late)).toBe(false);
      expect(await transitions.markSent(command.command_uuid, null)).toBe(false);
      expect(transaction).not.toHaveBeenCalled();
    } finally {
      transaction.mockRestore();
    }
    expect(await read(command.command_uuid)).toMatchObject({ status: 'accepted' });
    gateway.unsubscribe();
  });

  it('with replies and events about many commands arriving together, moves each once and in order', async () => {
    // Each call is reported three ways at once, as the gateway does: call-sent, call-completed and the reply; the
    // transitions of all of them are written together in batches.
    const controllers = Array.from({ length: 20 }, () => harness.addController(tenant));
    const deliveries = new Map<string, string[]>(controllers.map((uuid) => [uuid, []]));
    const gateways = controllers.map((controllerUuid) =>
      harness.serveCalls(controllerUuid, async (request) => {
        deliveries.get(controllerUuid)!.push(request.commandUuid);
        const sentAt = new Date().toISOString();
        const data = { commandUuid: request.commandUuid, controllerUuid, sentAt };
        await Promise.all([
          harness.publish(OcppCallEventSubjects.sent, tenant, data),
          harness.publish(OcppCallEventSubjects.completed, tenant, { ...data, reply: accepted }),
        ]);
        return accepted;
      }),
    );
    const created = new Map<string, string[]>(controllers.map((uuid) => [uuid, []]));
    await Promise.all(
      controllers.map(async (controllerUuid) => {
        for (let round = 0; round < 5; round++) {
          created.get(controllerUuid)!.push((await resetOf(controllerUuid, 600)).command_uuid);
        }
      }),
    );
    const all = [...created.values()].flat();
    for (const uuid of all) expect(await ended(uuid)).toMatchObject({ status: 'accepted' });
    expect(Object.fromEntries(deliveries)).toEqual(Object.fromEntries(created));
    await eventually(
      () => all.filter((uuid) => harness.statusesOf(uuid).length < 3),
      (unfinished) => unfinished.length === 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const uuid of all) expect(harness.statusesOf(uuid)).toEqual(['pending', 'sent', 'accepted']);
    for (const gateway of gateways) gateway.unsubscribe();
  });
});

describe('deleted targets', () => {
  it("fails a deleted controller's waiting commands, and a connector command whose plug is gone", async () => {
    const controllerUuid = harness.addController(tenant);
    const plugUuid = harness.addPlug(tenant, controllerUuid, 1);
    const waiting = await resetOf(controllerUuid, 600);
    await harness.publish(AssetsSubjects.controllerDeleted, tenant, {
      controllerUuid,
      ocppIdentity: 'CP',
      locationUuid: randomUUID(),
      deletedAt: new Date().toISOString(),
    });
    expect(await ended(waiting.command_uuid)).toMatchObject({
      status: 'failed',
      result: { error: 'target_deleted' },
    });

    const other = harness.addController(tenant);
    const otherPlug = harness.addPlug(tenant, other, 1);
    const unlock = await create({
      type: 'unlock',
      target_type: 'connector',
      target_uuid: otherPlug,
      valid_for_seconds: 600,
    });
    // Its first attempt (at creation: the lane is idle) found the charge point offline and gave the claim back.
    await eventually(
      () =>
        harness.sql<{ waiting: boolean }>(
          `SELECT lease_owner IS NULL AND attempts > 0 AS waiting FROM control.commands WHERE uuid = $1`,
          [unlock.command_uuid],
        ),
      ([row]) => row.waiting,
    );
    harness.assets.plugs.delete(otherPlug);
    const calls: string[] = [];
    harness.serveCalls(other, (request) => {
      calls.push(request.commandUuid);
      return accepted;
    });
    await harness.publish(ChargePointEventSubjects.connected, tenant, {
      controllerUuid: other,
      ocppIdentity: 'CP',
    });
    expect(await ended(unlock.command_uuid)).toMatchObject({
      status: 'failed',
      result: { error: 'target_deleted' },
    });
    expect(calls).toEqual([]);
    // Commands of deleted assets stay listed.
    expect((await read(unlock.command_uuid)).target_uuid).toBe(otherPlug);
    expect(plugUuid).toBeDefined();
  });

  it('fails at once a waiting command whose controller was deleted while its delivery was being attempted', async () => {
    const controllerUuid = harness.addController(tenant);
    const command = await resetOf(controllerUuid, 600);
    // Its charge point is offline. Another instance takes it up (for an hour, so nothing else touches it) ...
    const owner = 'another instance';
    await eventually(
      () =>
        harness.sql<{ uuid: string }>(
          `WITH taken AS (
             UPDATE control.commands SET lease_owner = $2, lease_until = now() + interval '1 hour', attempts = 1
              WHERE uuid = $1 AND lease_owner IS NULL RETURNING uuid)
           SELECT uuid FROM taken`,
          [command.command_uuid, owner],
        ),
      (taken) => taken.length === 1,
    );
    // ... the controller is deleted meanwhile, which only marks the command being delivered ...
    await harness.publish(AssetsSubjects.controllerDeleted, tenant, {
      controllerUuid,
      ocppIdentity: 'CP',
      locationUuid: randomUUID(),
      deletedAt: new Date().toISOString(),
    });
    await eventually(
      () =>
        harness.sql<{ marked: boolean }>(
          'SELECT target_deleted_at IS NOT NULL AS marked FROM control.commands WHERE uuid = $1',
          [command.command_uuid],
        ),
      ([row]) => row.marked,
    );
    expect((await read(command.command_uuid)).status).toBe('pending');
    // ... and its attempt finds the charge point offline: the command fails now, not at its next attempt.
    await harness
      .provider(DeliveryQueue)
      .awaitConnection(
        owner,
        { uuid: command.command_uuid, controller_uuid: controllerUuid } as ClaimedCommand,
        60_000,
      );
    expect(await read(command.command_uuid)).toMatchObject({
      status: 'failed',
      result: { error: 'target_deleted' },
    });
  });
});

describe('restarts and several instances', () => {
  it('ends a command whose instance stopped while its call was in flight', async () => {
    const controllerUuid = harness.addController(tenant);
    // The gateway's at-most-once ledger: the first request is held (no reply), a repeat gets the recorded outcome.
    const seen = new Map<string, number>();
    const gateway = harness.serveCalls(controllerUuid, (request) => {
      const count = (seen.get(request.commandUuid) ?? 0) + 1;
      seen.set(request.commandUuid, count);
      return count === 1 ? undefined : accepted;
    });
    const command = await resetOf(controllerUuid);
    await eventually(
      () => seen.get(command.command_uuid) ?? 0,
      (count) => count === 1,
    );
    await harness.stopService();
    await harness.startService();
    expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
    expect(seen.get(command.command_uuid)).toBe(2);
    gateway.unsubscribe();
  });

  it('takes up at start-up the claims a killed process on this host left, without waiting for them to lapse', async () => {
    const controllerUuid = harness.addController(tenant);
    const command = await resetOf(controllerUuid, 600);
    // What SIGKILL leaves: a claim of a process that is gone, valid for an hour.
    await harness.sql(
      `UPDATE control.commands SET lease_owner = $2, lease_until = now() + interval '1 hour' WHERE uuid = $1`,
      [command.command_uuid, `${hostname()}/killed-process`],
    );
    const gateway = harness.serveCalls(controllerUuid, () => accepted);
    const restarted = await harness.launch();
    try {
      expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
    } finally {
      gateway.unsubscribe();
      await restarted.app.close();
    }
  });

  it('with three instances, delivers each command exactly once and in order per charge point', async () => {
    const others = await Promise.all([harness.launch(), harness.launch()]);
    try {
      const controllers = Array.from({ length: 5 }, () => harness.addController(tenant));
      const deliveries = new Map<string, string[]>();
      for (const controllerUuid of controllers) {
        deliveries.set(controllerUuid, []);
        harness.serveCalls(controllerUuid, (request) => {
          deliveries.get(controllerUuid)!.push(request.commandUuid);
          return accepted;
        });
      }
      const created = new Map<string, string[]>(controllers.map((uuid) => [uuid, []]));
      for (let round = 0; round < 6; round++) {
        for (const controllerUuid of controllers) {
          created.get(controllerUuid)!.push((await resetOf(controllerUuid, 600)).command_uuid);
        }
      }
      for (const uuids of created.values()) {
        for (const uuid of uuids) expect((await ended(uuid)).status).toBe('accepted');
      }
      expect(Object.fromEntries(deliveries)).toEqual(Object.fromEntries(created));
    } finally {
      await Promise.all(others.map((other) => other.app.close()));
    }
  });
});

describe('concurrent creations on several instances', () => {
  it('never has two calls out to one charge point, and delivers each command once', async () => {
    const others = await Promise.all([harness.launch(), harness.launch()]);
    const gateways: { unsubscribe(): void }[] = [];
    try {
      const controllers = Array.from({ length: 4 }, () => harness.addController(tenant));
      const outstanding = new Map<string, number>();
      let overlaps = 0;
      const calls: string[] = [];
      for (const controllerUuid of controllers) {
        gateways.push(
          harness.serveCalls(controllerUuid, async (request) => {
            const out = (outstanding.get(controllerUuid) ?? 0) + 1;
            outstanding.set(controllerUuid, out);
            if (out > 1) overlaps += 1;
            calls.push(request.commandUuid);
            await new Promise((resolve) => setTimeout(resolve, 5));
            outstanding.set(controllerUuid, out - 1);
            return accepted;
          }),
        );
      }
      // Created all at once: the requests spread over the three instances, several to a batch, leasing and
      // claiming the same lanes at the same time.
      const created = await Promise.all(
        Array.from({ length: 60 }, (_, index) => resetOf(controllers[index % controllers.length], 600)),
      );
      for (const command of created) {
        expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
      }
      expect(overlaps).toBe(0);
      expect([...calls].sort()).toEqual(created.map((command) => command.command_uuid).sort());
    } finally {
      for (const gateway of gateways) gateway.unsubscribe();
      await Promise.all(others.map((other) => other.app.close()));
    }
  });
});

describe('per-tenant counts', () => {
  it('match the commands, slot by slot, after every kind of transition above', async () => {
    // Whatever is still moving settles first (a waiting command may still end meanwhile; compare in one snapshot).
    const [{ mismatches }] = await harness.sql<{ mismatches: number }>(COUNT_MISMATCHES_SQL);
    expect(mismatches).toBe(0);
    const [{ total }] = await harness.sql<{ total: string }>(
      'SELECT sum(count) AS total FROM control.command_counts',
    );
    const [{ rows }] = await harness.sql<{ rows: string }>('SELECT count(*) AS rows FROM control.commands');
    expect(total).toBe(rows);
  });
});
