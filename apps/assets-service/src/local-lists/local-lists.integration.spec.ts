import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  AssetsSubjects,
  AuthorizationSubjects,
  type ControllerView,
  type LocalListAnsweredRequest,
  type LocalListPage,
  type LocalListPageRequest,
} from '@cpc/contracts';
import type { ServiceTestRig } from '@cpc/testing';
import { startAssetsServiceRigWithLocation } from '../testing/assets-service-rig.js';

jest.setTimeout(60_000);

const tenantUuid = randomUUID();
let rig: ServiceTestRig;
let db: pg.Client;
let controller: ControllerView;

/** The first page of a command's update (preparing it), as the gateway asks for it. */
const prepared = (commandUuid: string, updateType: LocalListPageRequest['updateType']) =>
  rig.client.request<LocalListPage>(AuthorizationSubjects.localListPage, {
    tenantUuid,
    controllerUuid: controller.uuid,
    commandUuid,
    updateType,
    idTokenUuids: null,
    protocol: 'ocpp1.6',
    offset: 0,
    limit: 2000,
  } satisfies LocalListPageRequest);

const answered = (commandUuid: string, acceptedParts: number, final: boolean) =>
  rig.client.request<unknown>(AuthorizationSubjects.localListAnswered, {
    tenantUuid,
    commandUuid,
    acceptedParts,
    final,
  } satisfies LocalListAnsweredRequest);

/** The controller's recorded list: its version and the values on it. */
async function recorded(): Promise<{ version: number; values: string[] } | undefined> {
  const { rows } = await db.query<{ version: number; entries: { idToken: string }[] }>(
    `SELECT version, entries FROM assets.local_lists WHERE controller_uuid = $1`,
    [controller.uuid],
  );
  return (
    rows[0] && { version: rows[0].version, values: rows[0].entries.map((entry) => entry.idToken).sort() }
  );
}

const updatesKept = async () =>
  (await db.query(`SELECT command_uuid FROM assets.local_list_updates`)).rows.map((row) => row.command_uuid);

/** Tokens `from`..`to` - 1 of the tenant, allowed everywhere. */
async function createTokens(from: number, to: number): Promise<string[]> {
  const values: string[] = [];
  for (let index = from; index < to; index += 1) {
    const value = `T-${String(index).padStart(3, '0')}`;
    await rig.call(AuthorizationSubjects.createIdToken, { id_token: value, type: 'iso14443' }, tenantUuid);
    values.push(value);
  }
  return values;
}

beforeAll(async () => {
  let locationUuid: string;
  ({ rig, db, locationUuid } = await startAssetsServiceRigWithLocation(tenantUuid));
  controller = await rig.call<ControllerView>(
    AssetsSubjects.createController,
    {
      location_uuid: locationUuid,
      name: 'CP 1',
      ocpp_identity: 'LL-1',
      ocpp_password: 'secret-password-123',
    },
    tenantUuid,
  );
  // The charge point reported taking 10 entries per SendLocalList.
  await db.query(
    `INSERT INTO assets.controller_configuration (controller_uuid, key, tenant_uuid, variable, value, status,
                                                  source_message, reported_at)
     VALUES ($1, 'SendLocalListMaxLength', $2, 'SendLocalListMaxLength', '10', 'Accepted', 'GetConfiguration', now())`,
    [controller.uuid, tenantUuid],
  );
});

afterAll(async () => {
  await db?.end();
  await rig?.stop();
});

describe('local list updates in parts', () => {
  let all: string[];

  it('cuts the update by the reported limit and records each accepted part once, whatever the reports repeat', async () => {
    all = await createTokens(0, 25);
    const full = randomUUID();
    const page = await prepared(full, 'full');
    expect(page).toMatchObject({ listVersion: 1, total: 25, partEnds: [10, 20, 25], nextOffset: null });
    // The parts in the order sent (uuid order).
    const sent = page.tokens.map((token) => token.idToken);
    const upTo = (end: number) => sent.slice(0, end).sort();

    await answered(full, 1, false);
    expect(await recorded()).toEqual({ version: 1, values: upTo(10) });
    await answered(full, 1, false);
    await answered(full, 2, false);
    expect(await recorded()).toEqual({ version: 2, values: upTo(20) });

    // A repeated delivery finds the same update, cut the same way; a late report of fewer parts changes nothing.
    expect(await prepared(full, 'full')).toEqual(page);
    await answered(full, 1, false);
    expect((await recorded())?.version).toBe(2);

    await answered(full, 3, true);
    expect(await recorded()).toEqual({ version: 3, values: all });
    expect(await updatesKept()).toEqual([]);
    // The call-completed event after the direct report: the update is gone, nothing changes.
    await answered(full, 3, true);
    expect((await recorded())?.version).toBe(3);
  });

  it('a differential update refused at its second part keeps the first; the next update carries the rest', async () => {
    const added = await createTokens(25, 40);
    const refused = randomUUID();
    const page = await prepared(refused, 'differential');
    expect(page).toMatchObject({ listVersion: 4, total: 15, partEnds: [10, 15] });
    const sent = page.tokens.map((token) => token.idToken);
    await answered(refused, 1, true);
    expect(await recorded()).toEqual({ version: 4, values: [...all, ...sent.slice(0, 10)].sort() });

    const rest = randomUUID();
    const restPage = await prepared(rest, 'differential');
    expect(restPage).toMatchObject({ listVersion: 5, total: 5, partEnds: [5] });
    expect(restPage.tokens.map((token) => token.idToken)).toEqual(sent.slice(10));
    await answered(rest, 1, true);
    all = [...all, ...added].sort();
    expect(await recorded()).toEqual({ version: 5, values: all });
  });

  it('an update prepared over a list another update replaced meanwhile records nothing', async () => {
    const stale = randomUUID();
    const fresh = randomUUID();
    expect(await prepared(stale, 'full')).toMatchObject({ listVersion: 6, partEnds: [10, 20, 30, 40] });
    expect(await prepared(fresh, 'full')).toMatchObject({ listVersion: 6, partEnds: [10, 20, 30, 40] });
    await answered(fresh, 4, true);
    expect((await recorded())?.version).toBe(9);
    await answered(stale, 1, true);
    expect(await recorded()).toEqual({ version: 9, values: all });
  });
});
