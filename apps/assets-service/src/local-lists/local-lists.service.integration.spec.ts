import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { LocalListPageRequest } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { ControllerConfigurationService } from '../controller-configuration/controller-configuration.service.js';
import { IdTokensService } from '../id-tokens/id-tokens.service.js';
import { lockWaiters } from '@cpc/testing';
import { type AssetsFleetDatabase, createAssetsFleetDatabase } from '../testing/assets-fleet-database.js';
import { LocalListsService } from './local-lists.service.js';

/**
 * LocalListsService against real PostgreSQL: another tenant kept out, and reports of several commands of one
 * controller. Parts of 2 entries (the default when a charge point reported no limit); the tenant has 5 tokens.
 */

jest.setTimeout(60_000);

const TUNING = { ...ASSETS_SERVICE_TUNING, localListItemsPerMessageDefault: 2 };

let fleet: AssetsFleetDatabase;
let lists: LocalListsService;
let tokens: IdTokensService;
let tenantUuid: string;
let values: string[];
const otherTenant = randomUUID();

let used = 0;
/** A controller of the tenant no other test touches. */
function freshController(): string {
  if (used === fleet.controllers.length) throw new Error('the fleet has no controller left');
  return fleet.controllers[used++];
}

beforeAll(async () => {
  fleet = await createAssetsFleetDatabase(8);
  tenantUuid = fleet.tenantUuid;
  const configuration = new ControllerConfigurationService(fleet.dataSource, TUNING);
  lists = new LocalListsService(fleet.dataSource, TUNING, configuration);
  tokens = new IdTokensService(fleet.dataSource, TUNING);
  values = ['L-1', 'L-2', 'L-3', 'L-4', 'L-5'];
  for (const value of values) await tokens.create(tenantUuid, { id_token: value, type: 'iso14443' });
});

afterAll(async () => {
  await fleet?.drop();
});

const request = (
  controllerUuid: string,
  commandUuid: string,
  overrides: Partial<LocalListPageRequest> = {},
) =>
  ({
    tenantUuid,
    controllerUuid,
    commandUuid,
    updateType: 'full',
    idTokenUuids: null,
    protocol: 'ocpp1.6',
    offset: 0,
    limit: 2000,
    ...overrides,
  }) satisfies LocalListPageRequest;

/** The controller's recorded list: its version and the values on it. */
async function recorded(controllerUuid: string): Promise<{ version: number; values: string[] } | undefined> {
  const rows = await fleet.dataSource.query<{ version: number; entries: { idToken: string }[] }[]>(
    `SELECT version, entries FROM assets.local_lists WHERE controller_uuid = $1`,
    [controllerUuid],
  );
  return (
    rows[0] && { version: rows[0].version, values: rows[0].entries.map((entry) => entry.idToken).sort() }
  );
}

async function updateKept(commandUuid: string): Promise<boolean> {
  const rows = await fleet.dataSource.query(
    `SELECT 1 FROM assets.local_list_updates WHERE command_uuid = $1`,
    [commandUuid],
  );
  return rows.length === 1;
}

describe('another tenant', () => {
  it("can neither prepare nor page the controller's update, nor settle it", async () => {
    const controller = freshController();
    await expect(
      lists.page({ ...request(controller, randomUUID()), tenantUuid: otherTenant }),
    ).rejects.toEqual(new NotFoundError('controller'));
    const command = randomUUID();
    expect(await lists.page(request(controller, command))).toMatchObject({
      listVersion: 1,
      partEnds: [2, 4, 5],
    });
    await expect(
      lists.page({ ...request(controller, command), tenantUuid: otherTenant, offset: 2 }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await lists.answered(otherTenant, command, 3, true);
    expect(await recorded(controller)).toBeUndefined();
    expect(await updateKept(command)).toBe(true);
    await lists.answered(tenantUuid, command, 3, true);
    expect(await recorded(controller)).toEqual({ version: 3, values });
  });

  it("has no token a named list can carry; exist() answers false for another tenant's tokens", async () => {
    const controller = freshController();
    const foreign = await tokens.create(otherTenant, { id_token: 'FOREIGN', type: 'iso14443' });
    const [own] = (
      await tokens.list(tenantUuid, { page: 1, limit: 1, orderBy: [], filter: { id_token: 'L-1' } })
    ).items;
    const page = await lists.page(
      request(controller, randomUUID(), { idTokenUuids: [own.uuid, foreign.uuid] }),
    );
    expect(page.tokens.map((token) => token.idToken)).toEqual(['L-1']);
    expect(await lists.exist(tenantUuid, [own.uuid, foreign.uuid, 'not-a-uuid'])).toEqual([
      true,
      false,
      false,
    ]);
    expect(await lists.exist(otherTenant, [foreign.uuid.toUpperCase()])).toEqual([true]);
  });
});

describe('reports of several commands of one controller', () => {
  it('two at once on a controller without a list record one list, without a unique violation', async () => {
    const controller = freshController();
    const first = randomUUID();
    const second = randomUUID();
    await lists.page(request(controller, first));
    await lists.page(request(controller, second));
    // Another session inserts the controller's list and holds it uncommitted: both reports wait on its key.
    const blocker = fleet.dataSource.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    try {
      await blocker.query(
        `INSERT INTO assets.local_lists (tenant_uuid, controller_uuid, version, entries, command_uuid, updated_at)
         VALUES ($1, $2, 1, '[]', $3, now())`,
        [tenantUuid, controller, randomUUID()],
      );
      const one = lists.answered(tenantUuid, first, 3, true);
      const two = lists.answered(tenantUuid, second, 3, true);
      await lockWaiters(fleet.dataSource, 2);
      await blocker.rollbackTransaction();
      await Promise.all([one, two]);
    } finally {
      await blocker.release();
    }
    expect(await recorded(controller)).toEqual({ version: 3, values });
    expect([await updateKept(first), await updateKept(second)]).toEqual([false, false]);
  });

  // recordLocalList moves the list only from the update's base or its own earlier parts: a late report of an update
  // prepared before another command's list was recorded records nothing, however many parts it reports.
  it('a report of an update prepared before another command recorded a list records none of its parts', async () => {
    const controller = freshController();
    const stale = randomUUID();
    const fresh = randomUUID();
    expect(await lists.page(request(controller, stale))).toMatchObject({
      listVersion: 1,
      partEnds: [2, 4, 5],
    });
    const freshPage = await lists.page(request(controller, fresh));
    await lists.answered(tenantUuid, fresh, 1, true);
    const freshList = {
      version: 1,
      values: freshPage.tokens
        .slice(0, 2)
        .map((token) => token.idToken)
        .sort(),
    };
    expect(await recorded(controller)).toEqual(freshList);
    await lists.answered(tenantUuid, stale, 2, true);
    expect(await recorded(controller)).toEqual(freshList);
  });
});

describe('a command prepared again', () => {
  // page() prepares a command named with another controller again, and the update becomes that controller's.
  it('for another controller pages and records its update on that controller', async () => {
    const first = freshController();
    const second = freshController();
    const command = randomUUID();
    await lists.page(request(first, command));
    await lists.page(request(second, command));
    expect(await lists.page(request(second, command, { offset: 2, limit: 2 }))).toMatchObject({
      nextOffset: 4,
    });
    await lists.answered(tenantUuid, command, 3, true);
    expect([await recorded(first), await recorded(second)]).toEqual([undefined, { version: 3, values }]);
  });
});
