import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import {
  AssetsSubjects,
  type CommandPage,
  CommandSubjects,
  type CommandView,
  type CreatedCommand,
  ErrorCode,
  type ListCommandsPayload,
} from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { eventually } from '@cpc/testing';
import { CommandServiceHarness } from '../testing/command-service-harness.js';

const harness = new CommandServiceHarness();
const tenantA: string = randomUUID();
const tenantB: string = randomUUID();
// No gateway answers in this file: every command to this offline controller waits (validity) or fails at once.
let controllerUuid: string;
let plugUuid: string;

const create = (body: unknown, idempotencyKey?: string, tenantUuid = tenantA) =>
  harness.call<CreatedCommand>(CommandSubjects.create, { body, idempotencyKey }, tenantUuid);

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as DomainError,
  );

const list = (payload: Partial<ListCommandsPayload>, tenantUuid = tenantA) =>
  harness.call<CommandPage>(
    CommandSubjects.list,
    { page: 1, limit: 50, orderBy: [], filter: {}, ...payload },
    tenantUuid,
  );

beforeAll(async () => {
  await harness.start();
  controllerUuid = harness.addController(tenantA);
  plugUuid = harness.addPlug(tenantA, controllerUuid, 1);
}, 60_000);

afterAll(() => harness.stop());

describe('creating a command', () => {
  it('stores it pending and answers the spec fields, and publishes its first status event', async () => {
    const { command, created } = await create({
      type: 'change_availability',
      target_type: 'connector',
      target_uuid: plugUuid.toUpperCase(),
      parameters: { availability: 'inoperative' },
      valid_for_seconds: 600,
    });
    expect(created).toBe(true);
    expect(command).toEqual({
      command_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      target_type: 'connector',
      target_uuid: plugUuid,
      type: 'change_availability',
      status: 'pending',
      result: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      completed_at: null,
    });
    await expect(
      harness.call<CommandView>(CommandSubjects.get, { uuid: command.command_uuid }, tenantA),
    ).resolves.toEqual(command);
    const [stored] = await harness.sql<{ controller_uuid: string; target: unknown; parameters: unknown }>(
      'SELECT controller_uuid, target, parameters FROM control.commands WHERE uuid = $1',
      [command.command_uuid],
    );
    expect(stored).toEqual({
      controller_uuid: controllerUuid,
      target: { targetType: 'connector', connectorId: 1, evseId: 1, evseConnectorId: 1 },
      parameters: { availability: 'inoperative' },
    });
    const event = await eventually(
      () => harness.statusEvents.find((item) => item.data.command.command_uuid === command.command_uuid),
      (found) => found !== undefined,
    );
    expect(event!.data).toEqual({ command, previousStatus: null, controllerUuid });
  });

  it('reports every problem of the body at once, each on its parameter', async () => {
    const failure = await failureOf(
      create(
        {
          type: 'unlock',
          target_type: 'controller',
          target_uuid: 'nope',
          valid_for_seconds: 86_401,
          colour: 'blue',
        },
        '',
      ),
    );
    expect(failure.code).toBe(ErrorCode.ValidationFailed);
    expect(failure.issues?.map((issue) => [issue.parameter, issue.errorKey]).sort()).toEqual(
      [
        ['Idempotency-Key', 'invalid_value'],
        ['colour', 'unknown_field'],
        ['target_uuid', 'invalid_uuid'],
        ['type', 'invalid_target_type'],
        ['valid_for_seconds', 'out_of_range'],
      ].sort(),
    );
    for (const body of [null, [], 'text']) {
      const notObject = await failureOf(create(body));
      expect(notObject.issues).toEqual([
        { parameter: 'body', errorKey: 'invalid_type', message: 'the body must be a JSON object' },
      ]);
    }
    const missing = await failureOf(create({ valid_for_seconds: 1.5 }));
    expect(missing.issues?.map((issue) => [issue.parameter, issue.errorKey]).sort()).toEqual(
      [
        ['target_type', 'required'],
        ['target_uuid', 'required'],
        ['type', 'required'],
        ['valid_for_seconds', 'invalid_type'],
      ].sort(),
    );
    const parameters = await failureOf(
      create({ type: 'remote_start', target_type: 'connector', target_uuid: plugUuid, parameters: {} }),
    );
    expect(parameters.issues).toEqual([
      expect.objectContaining({ parameter: 'parameters.id_tag', errorKey: 'required' }),
    ]);
  });

  it("refuses a target that does not exist for the caller's tenant on target_uuid", async () => {
    for (const [targetType, targetUuid, tenantUuid] of [
      ['controller', randomUUID(), tenantA],
      ['controller', controllerUuid, tenantB],
      ['connector', plugUuid, tenantB],
      ['charging_session', randomUUID(), tenantA],
    ]) {
      const type = targetType === 'charging_session' ? 'remote_stop' : 'change_availability';
      const failure = await failureOf(
        create(
          {
            type,
            target_type: targetType,
            target_uuid: targetUuid,
            parameters: type === 'remote_stop' ? {} : { availability: 'operative' },
          },
          undefined,
          tenantUuid,
        ),
      );
      expect(failure.issues).toEqual([
        expect.objectContaining({ parameter: 'target_uuid', errorKey: 'not_found' }),
      ]);
    }
  });
});

describe('creations arriving together', () => {
  it("share their controllers' existence checks, each answered for its own tenant", async () => {
    const otherTenantsController = harness.addController(tenantB);
    const targets = Array.from(
      { length: 40 },
      (_, index) =>
        [controllerUuid, randomUUID(), otherTenantsController, controllerUuid.toUpperCase()][index % 4],
    );
    const lookupsBefore = harness.controllerLookups;
    const outcomes = await Promise.all(
      targets.map((targetUuid) =>
        create({
          type: 'soft_reset',
          target_type: 'controller',
          target_uuid: targetUuid,
          valid_for_seconds: 60,
        }).then(
          ({ command }) => command.target_uuid,
          (error: DomainError) => error.issues?.[0]?.errorKey,
        ),
      ),
    );
    expect(outcomes).toEqual(
      targets.map((_, index) => [controllerUuid, 'not_found', 'not_found', controllerUuid][index % 4]),
    );
    // Two requests go out at once; what arrives meanwhile shares the next one.
    expect(harness.controllerLookups - lookupsBefore).toBeLessThan(10);
  });
});

describe('controllers seen to exist', () => {
  const resetFor = (target: string, tenantUuid = tenantA) =>
    create(
      { type: 'soft_reset', target_type: 'controller', target_uuid: target, valid_for_seconds: 60 },
      undefined,
      tenantUuid,
    ).then(
      ({ command }) => command.target_uuid,
      (error: DomainError) => error.issues?.[0]?.errorKey,
    );

  it('are asked about once, for their own tenant only, until their deletion event arrives', async () => {
    const controller = harness.addController(tenantB);
    const lookupsBefore = harness.controllerLookups;
    expect(await resetFor(controller, tenantB)).toBe(controller);
    expect(await resetFor(controller, tenantB)).toBe(controller);
    expect(await resetFor(controller, tenantB)).toBe(controller);
    expect(harness.controllerLookups - lookupsBefore).toBe(1);
    // Remembered for its tenant: another tenant is asked about, and refused.
    expect(await resetFor(controller, tenantA)).toBe('not_found');
    expect(harness.controllerLookups - lookupsBefore).toBe(2);

    harness.assets.controllers.delete(controller);
    await harness.publish(AssetsSubjects.controllerDeleted, tenantB, {
      controllerUuid: controller,
      ocppIdentity: 'CP',
      locationUuid: randomUUID(),
      deletedAt: new Date().toISOString(),
    });
    await eventually(
      () => resetFor(controller, tenantB),
      (outcome) => outcome === 'not_found',
    );
    // "Not found" is not remembered: a controller created now is found at once.
    harness.addController(tenantB, controller);
    expect(await resetFor(controller, tenantB)).toBe(controller);
  });
});

describe('idempotency keys', () => {
  const body = () => ({
    type: 'soft_reset',
    target_type: 'controller',
    target_uuid: controllerUuid,
    valid_for_seconds: 3600,
  });

  it('answers a repeat with the first command, refuses the key with another body, and keeps tenants apart', async () => {
    const key = randomUUID();
    const first = await create(body(), key);
    const repeat = await create(
      { valid_for_seconds: 3600, target_uuid: controllerUuid, target_type: 'controller', type: 'soft_reset' },
      key,
    );
    expect(repeat).toEqual({ command: first.command, created: false });
    const other = await failureOf(create({ ...body(), valid_for_seconds: 60 }, key));
    expect(other.issues).toEqual([
      expect.objectContaining({ parameter: 'Idempotency-Key', errorKey: 'idempotency_key_reused' }),
    ]);
    // The same key in another tenant is another key.
    const otherController = harness.addController(tenantB);
    const elsewhere = await create({ ...body(), target_uuid: otherController }, key, tenantB);
    expect(elsewhere.created).toBe(true);
  });

  it('stores many creations arriving together, each with its own row, first status event and count', async () => {
    const tenant = randomUUID();
    const controllers = [harness.addController(tenant), harness.addController(tenant)];
    const types = ['soft_reset', 'clear_cache', 'identify'];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        create(
          {
            type: types[index % types.length],
            target_type: 'controller',
            target_uuid: controllers[index % controllers.length],
            valid_for_seconds: 600,
          },
          undefined,
          tenant,
        ),
      ),
    );
    const uuids = answers.map(({ command }) => command.command_uuid);
    expect(new Set(uuids).size).toBe(60);
    for (const { command } of answers) {
      await expect(
        harness.call<CommandView>(CommandSubjects.get, { uuid: command.command_uuid }, tenant),
      ).resolves.toEqual(command);
    }
    const events = await eventually(
      () => harness.statusEvents.filter((event) => uuids.includes(event.data.command.command_uuid)),
      (found) => found.length === 60,
    );
    for (const event of events) {
      const answer = answers.find(({ command }) => command.command_uuid === event.data.command.command_uuid);
      expect(event.data).toEqual({
        command: answer!.command,
        previousStatus: null,
        controllerUuid: controllers[uuids.indexOf(answer!.command.command_uuid) % controllers.length],
      });
    }
    const counted = await harness.sql<{ type: string; count: string }>(
      `SELECT type, sum(count) AS count FROM control.command_counts
        WHERE tenant_uuid = $1 AND status = 'pending' GROUP BY type ORDER BY type`,
      [tenant],
    );
    expect(counted).toEqual([
      { type: 'clear_cache', count: '20' },
      { type: 'identify', count: '20' },
      { type: 'soft_reset', count: '20' },
    ]);
  });

  it('turns concurrent duplicates into one command', async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(body(), key)));
    expect(new Set(answers.map((answer) => answer.command.command_uuid)).size).toBe(1);
    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    const [{ count }] = await harness.sql<{ count: string }>(
      'SELECT count(*) FROM control.commands WHERE uuid = $1',
      [answers[0].command.command_uuid],
    );
    expect(count).toBe('1');
    // The requests that lost wrote nothing: the tenant's counts still match its commands.
    const [counted] = await harness.sql<{ counted: string; stored: string }>(
      `SELECT (SELECT sum(count) FROM control.command_counts WHERE tenant_uuid = $1) AS counted,
              (SELECT count(*) FROM control.commands WHERE tenant_uuid = $1) AS stored`,
      [tenantA],
    );
    expect(counted.counted).toBe(counted.stored);
  });

  it('lets a key be used again once it expired', async () => {
    const key = randomUUID();
    const first = await create(body(), key);
    await harness.sql(
      `UPDATE control.command_idempotency_keys SET expires_at = now() - interval '1 second' WHERE idempotency_key = $1`,
      [key],
    );
    const again = await create({ ...body(), valid_for_seconds: 5 }, key);
    expect(again.created).toBe(true);
    expect(again.command.command_uuid).not.toBe(first.command.command_uuid);
  });
});

describe('listing and reading', () => {
  const tenant: string = randomUUID();
  let controller: string;
  let plug: string;
  const uuids: string[] = [];

  beforeAll(async () => {
    controller = harness.addController(tenant);
    plug = harness.addPlug(tenant, controller, 2);
    for (let index = 0; index < 5; index++) {
      const { command } = await create(
        index % 2 === 0
          ? {
              type: 'clear_cache',
              target_type: 'controller',
              target_uuid: controller,
              valid_for_seconds: 3600,
            }
          : { type: 'unlock', target_type: 'connector', target_uuid: plug, valid_for_seconds: 3600 },
        undefined,
        tenant,
      );
      uuids.push(command.command_uuid);
    }
  });

  it('lists newest first by default, pages consistently, and orders ascending on request', async () => {
    const first = await list({ limit: 2 }, tenant);
    expect(first.items.map((item) => item.command_uuid)).toEqual([uuids[4], uuids[3]]);
    expect(first.pagination).toEqual({
      page: 1,
      total_pages: 3,
      page_size: 2,
      has_more: true,
      cursor: { next: expect.any(String) },
    });
    const last = await list({ limit: 2, page: 3 }, tenant);
    expect(last.items.map((item) => item.command_uuid)).toEqual([uuids[0]]);
    expect(last.pagination).toEqual({
      page: 3,
      total_pages: 3,
      page_size: 2,
      has_more: false,
      cursor: { prev: expect.any(String) },
    });
    const beyond = await list({ limit: 2, page: 9 }, tenant);
    expect(beyond).toEqual({
      items: [],
      pagination: { page: 9, total_pages: 3, page_size: 2, has_more: false, cursor: {} },
    });
    const ascending = await list({ orderBy: [{ field: 'created_at', direction: 'asc' }] }, tenant);
    expect(ascending.items.map((item) => item.command_uuid)).toEqual(uuids);
  });

  it('filters by target type, target, type and status', async () => {
    const ids = async (filter: ListCommandsPayload['filter']) =>
      (await list({ filter }, tenant)).items.map((item) => item.command_uuid).sort();
    expect(await ids({ target_type: 'connector' })).toEqual([uuids[1], uuids[3]].sort());
    expect(await ids({ target_uuid: controller })).toEqual([uuids[0], uuids[2], uuids[4]].sort());
    expect(await ids({ type: 'unlock', target_uuid: plug })).toEqual([uuids[1], uuids[3]].sort());
    expect(await ids({ status: 'accepted' })).toEqual([]);
    expect(await ids({ target_uuid: randomUUID() })).toEqual([]);
    const empty = await list({ filter: { type: 'hard_reset' } }, tenant);
    expect(empty).toEqual({
      items: [],
      pagination: { page: 1, total_pages: 1, page_size: 50, has_more: false, cursor: {} },
    });
  });

  it("keeps tenants apart: another tenant's command is not found, exactly like a missing one", async () => {
    expect((await list({ filter: { target_uuid: controller } })).items).toEqual([]);
    for (const [uuid, tenantUuid] of [
      [uuids[0], tenantA],
      [randomUUID(), tenant],
      ['not-a-uuid', tenant],
    ]) {
      const failure = await failureOf(harness.call(CommandSubjects.get, { uuid }, tenantUuid));
      expect(failure).toBeInstanceOf(DomainError);
      expect(failure.code).toBe(ErrorCode.NotFound);
    }
  });
});
