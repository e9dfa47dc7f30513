import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { type CreateIdTokenPayload, ErrorCode, MAX_ID_TOKENS_PER_IMPORT } from '@cpc/contracts';
import { DomainError, NotFoundError } from '@cpc/errors';
import type { QueryRunner } from 'typeorm';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { lockWaiters } from '@cpc/testing';
import { type AssetsFleetDatabase, createAssetsFleetDatabase } from '../testing/assets-fleet-database.js';
import { IdTokenSnapshots } from './id-token-snapshots.js';
import { IdTokensService } from './id-tokens.service.js';

/**
 * IdTokensService against real PostgreSQL: tenancy, imports (all or nothing, limits) and writers of one tenant at once.
 * Races are forced by a second session holding the tenant's revision row (or a token row) until the writers under
 * test wait for it (pg_stat_activity), then letting go.
 */

jest.setTimeout(60_000);

let fleet: AssetsFleetDatabase;
let service: IdTokensService;

/** A tenant no other test writes to. */
const freshTenant = () => randomUUID();

beforeAll(async () => {
  fleet = await createAssetsFleetDatabase(1);
  service = new IdTokensService(fleet.dataSource, ASSETS_SERVICE_TUNING);
});

afterAll(async () => {
  await fleet?.drop();
});

const card = (id_token: string, fields: Partial<CreateIdTokenPayload> = {}): CreateIdTokenPayload => ({
  id_token,
  type: 'iso14443',
  ...fields,
});

/** The tenant's tokens as [value, status, group value], by value. */
async function stored(tenantUuid: string): Promise<[string, string, string | null][]> {
  const rows = await fleet.dataSource.query<{ id_token: string; status: string; group: string | null }[]>(
    `SELECT t.id_token, t.status, g.id_token AS group FROM assets.id_tokens t
       LEFT JOIN assets.id_tokens g ON g.uuid = t.group_uuid
      WHERE t.tenant_uuid = $1 ORDER BY t.id_token`,
    [tenantUuid],
  );
  return rows.map((row) => [row.id_token, row.status, row.group]);
}

async function revisionOf(tenantUuid: string): Promise<number> {
  const rows = await fleet.dataSource.query<{ revision: string }[]>(
    `SELECT revision FROM assets.id_token_revisions WHERE tenant_uuid = $1`,
    [tenantUuid],
  );
  return Number(rows[0]?.revision ?? 0);
}

async function partsKept(importUuid: string): Promise<number> {
  const [{ count }] = await fleet.dataSource.query<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM assets.id_token_import_parts WHERE import_uuid = $1`,
    [importUuid],
  );
  return count;
}

/** Sends the tokens in parts of `partSize`; commit them with `commit`. */
async function stage(tenantUuid: string, tokens: CreateIdTokenPayload[], partSize = 2) {
  const importUuid = randomUUID();
  for (let offset = 0; offset < tokens.length; offset += partSize) {
    await service.importPart(tenantUuid, {
      importUuid,
      offset,
      tokens: tokens.slice(offset, offset + partSize),
    });
  }
  return {
    importUuid,
    commit: (total = tokens.length) => service.importCommit(tenantUuid, { importUuid, total }),
  };
}

const importTokens = async (tenantUuid: string, tokens: CreateIdTokenPayload[]) =>
  (await stage(tenantUuid, tokens)).commit();

/** The error a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The spec's answer to an error: its code and issues, or `internal` for anything that is not a DomainError. */
function answerTo(error: unknown) {
  if (!(error instanceof DomainError)) return { code: 'internal', message: String(error) };
  return { code: error.code, issues: error.issues?.map((issue) => [issue.parameter, issue.errorKey]) };
}

/** A second session holding rows `FOR UPDATE` until `release`. */
async function hold(sql: string, parameters: unknown[]): Promise<{ release: () => Promise<void> }> {
  const blocker: QueryRunner = fleet.dataSource.createQueryRunner();
  await blocker.connect();
  await blocker.startTransaction();
  await blocker.query(sql, parameters);
  return {
    release: async () => {
      await blocker.commitTransaction();
      await blocker.release();
    },
  };
}

/** Holds the tenant's revision row: every writer of its tokens waits there. */
const holdRevision = (tenantUuid: string) =>
  hold(`SELECT 1 FROM assets.id_token_revisions WHERE tenant_uuid = $1 FOR UPDATE`, [tenantUuid]);

describe("another tenant's tokens", () => {
  it('are not found by get, update or delete, not listed, and keep their state', async () => {
    const owner = freshTenant();
    const other = freshTenant();
    const token = await service.create(owner, card('SHARED-1'));
    await expect(service.get(other, token.uuid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.update(other, token.uuid, { status: 'blocked' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(service.delete(other, token.uuid)).rejects.toBeInstanceOf(NotFoundError);
    const page = await service.list(other, { page: 1, limit: 50, orderBy: [], filter: {} });
    expect(page.items).toEqual([]);
    expect(await stored(owner)).toEqual([['SHARED-1', 'accepted', null]]);
    expect(await revisionOf(other)).toBe(0);
  });

  it('may have the same value and type as the tenant', async () => {
    const owner = freshTenant();
    const other = freshTenant();
    await service.create(owner, card('SAME-1'));
    await service.create(other, card('same-1'));
    expect(await stored(other)).toEqual([['same-1', 'accepted', null]]);
  });

  it("cannot be named as a group, nor can another tenant's location: 422 not_found as for missing ones", async () => {
    const other = freshTenant();
    await service.create(other, card('GROUP-X'));
    const error = await failure(
      service.create(
        freshTenant(),
        card('MEMBER', { group_id_token: { id_token: 'GROUP-X', type: 'iso14443' } }),
      ),
    );
    expect(answerTo(error)).toEqual({
      code: ErrorCode.ValidationFailed,
      issues: [['group_id_token', 'not_found']],
    });
    const located = await failure(
      service.create(freshTenant(), card('PLACED', { allowed_location_uuids: [fleet.locationUuid] })),
    );
    expect(answerTo(located)).toEqual({
      code: ErrorCode.ValidationFailed,
      issues: [['allowed_location_uuids', 'not_found']],
    });
  });

  it("are not taken by a commit of the tenant naming the other tenant's import, which stays staged", async () => {
    const owner = freshTenant();
    const other = freshTenant();
    const staged = await stage(owner, [card('STAGED-1'), card('STAGED-2')]);
    const error = await failure(service.importCommit(other, { importUuid: staged.importUuid, total: 2 }));
    expect(answerTo(error)).toEqual({
      code: ErrorCode.ValidationFailed,
      issues: [['id_tokens', 'invalid_length']],
    });
    expect(await partsKept(staged.importUuid)).toBe(1);
    expect(await stored(other)).toEqual([]);
    expect(await staged.commit()).toEqual({ created: 2, updated: 0 });
  });

  it("are not in the tenant's snapshot page, whose groups are the tenant's own", async () => {
    const owner = freshTenant();
    const other = freshTenant();
    await importTokens(owner, [
      card('G'),
      card('M', { group_id_token: { id_token: 'G', type: 'iso14443' } }),
    ]);
    await importTokens(other, [card('OTHER')]);
    const snapshots = new IdTokenSnapshots(
      fleet.dataSource,
      service,
      {} as NatsConnection,
      ASSETS_SERVICE_TUNING,
    );
    const page = await snapshots.page({ tenantUuid: owner, afterUuid: null, limit: 10 });
    expect(page.revision).toBe(1);
    expect(page.tokens.map((token) => [token.idToken, token.group?.idToken ?? null]).sort()).toEqual([
      ['G', null],
      ['M', 'G'],
    ]);
  });
});

describe('an import', () => {
  it('writes every token with groups among them and answers what it created and replaced', async () => {
    const tenant = freshTenant();
    await service.create(tenant, card('KNOWN', { status: 'blocked' }));
    const result = await importTokens(tenant, [
      card('known', { status: 'accepted' }),
      card('MEMBER', { group_id_token: { id_token: 'LEADER', type: 'iso14443' } }),
      card('LEADER'),
    ]);
    expect(result).toEqual({ created: 2, updated: 1 });
    expect(await stored(tenant)).toEqual([
      ['KNOWN', 'accepted', null],
      ['LEADER', 'accepted', null],
      ['MEMBER', 'accepted', 'LEADER'],
    ]);
    expect(await revisionOf(tenant)).toBe(2);
  });

  it('with a problem at one token writes nothing, leaves the revision and drops its parts', async () => {
    const tenant = freshTenant();
    await service.create(tenant, card('KEPT'));
    const staged = await stage(tenant, [
      card('KEPT', { status: 'blocked' }),
      card('NEW-1'),
      card('NEW-2', { group_id_token: { id_token: 'NOWHERE', type: 'iso14443' } }),
      card('new-1'),
    ]);
    const error = await failure(staged.commit());
    expect(answerTo(error)).toEqual({
      code: ErrorCode.ValidationFailed,
      issues: [
        ['id_tokens[3].id_token', 'duplicate'],
        ['id_tokens[2].group_id_token', 'not_found'],
      ],
    });
    expect(await stored(tenant)).toEqual([['KEPT', 'accepted', null]]);
    expect(await revisionOf(tenant)).toBe(1);
    expect(await partsKept(staged.importUuid)).toBe(0);
  });

  it('that the database refuses half-way (a value too long for its column) writes nothing', async () => {
    const tenant = freshTenant();
    const error = await failure(importTokens(tenant, [card('FIRST'), card('X'.repeat(37))]));
    expect(error).toBeDefined();
    expect(await stored(tenant)).toEqual([]);
    expect(await revisionOf(tenant)).toBe(0);
  });

  it('whose parts arrived incompletely is refused and writes nothing', async () => {
    const tenant = freshTenant();
    const staged = await stage(tenant, [card('A'), card('B'), card('C')]);
    const error = await failure(staged.commit(4));
    expect(answerTo(error)).toEqual({
      code: ErrorCode.ValidationFailed,
      issues: [['id_tokens', 'invalid_length']],
    });
    expect(await stored(tenant)).toEqual([]);
  });

  it('of 10,000 tokens is written; one of 10,001 is refused with nothing written', async () => {
    const tenant = freshTenant();
    const many = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, index) => card(`${prefix}-${index}`));
    const tooMany = await stage(tenant, many(MAX_ID_TOKENS_PER_IMPORT + 1, 'OVER'), 5000);
    expect(answerTo(await failure(tooMany.commit()))).toEqual({
      code: ErrorCode.ValidationFailed,
      issues: [['id_tokens', 'invalid_length']],
    });
    expect(await stored(tenant)).toEqual([]);
    const exact = await stage(tenant, many(MAX_ID_TOKENS_PER_IMPORT, 'MAX'), 5000);
    expect(await exact.commit()).toEqual({ created: MAX_ID_TOKENS_PER_IMPORT, updated: 0 });
  });
});

describe('writers of one tenant at once', () => {
  it('two creates of one value (in another case): one is created, the other is 422 already_exists', async () => {
    const tenant = freshTenant();
    await service.create(tenant, card('SEED'));
    const blocker = await holdRevision(tenant);
    let results: PromiseSettledResult<unknown>[];
    try {
      const first = service.create(tenant, card('TWIN'));
      const second = service.create(tenant, card('twin'));
      await lockWaiters(fleet.dataSource, 2);
      await blocker.release();
      results = await Promise.allSettled([first, second]);
    } finally {
      await blocker.release().catch(() => undefined);
    }
    const rejected = results.flatMap((result) =>
      result.status === 'rejected' ? [answerTo(result.reason)] : [],
    );
    expect(rejected).toEqual([
      { code: ErrorCode.ValidationFailed, issues: [['id_token', 'already_exists']] },
    ]);
    expect((await stored(tenant)).map(([value]) => value.toUpperCase())).toEqual(['SEED', 'TWIN']);
  });

  it('two PATCHes of one token: both apply, neither is lost', async () => {
    const tenant = freshTenant();
    const token = await service.create(tenant, card('SHARED'));
    const blocker = await hold(`SELECT 1 FROM assets.id_tokens WHERE uuid = $1 FOR UPDATE`, [token.uuid]);
    try {
      const status = service.update(tenant, token.uuid, { status: 'blocked' });
      await lockWaiters(fleet.dataSource, 1);
      const reference = service.update(tenant, token.uuid, { contract_reference: 'C-1' });
      await lockWaiters(fleet.dataSource, 2);
      await blocker.release();
      await Promise.all([status, reference]);
    } finally {
      await blocker.release().catch(() => undefined);
    }
    const after = await service.get(tenant, token.uuid);
    expect([after.status, after.contract_reference]).toEqual(['blocked', 'C-1']);
    expect(await revisionOf(tenant)).toBe(3);
  });

  // Every writer raises the tenant's revision first: had a PATCH locked the token before it, as it did, it and a delete
  // took the two locks in opposite orders and PostgreSQL aborted one with "deadlock detected" (a 5xx).
  it('a PATCH and a delete of one token: the delete wins, the PATCH is 404, no deadlock', async () => {
    const tenant = freshTenant();
    const token = await service.create(tenant, card('DOOMED'));
    const blocker = await holdRevision(tenant);
    let results: PromiseSettledResult<unknown>[];
    try {
      const deleting = service.delete(tenant, token.uuid);
      await lockWaiters(fleet.dataSource, 1);
      const updating = service.update(tenant, token.uuid, { status: 'blocked' });
      await lockWaiters(fleet.dataSource, 2);
      await blocker.release();
      results = await Promise.allSettled([deleting, updating]);
    } finally {
      await blocker.release().catch(() => undefined);
    }
    expect(results[0].status).toBe('fulfilled');
    expect(results[1].status === 'rejected' && answerTo(results[1].reason)).toEqual({
      code: ErrorCode.NotFound,
      issues: undefined,
    });
    expect(await stored(tenant)).toEqual([]);
  });

  // The same between an import (revision, then the token rows of its upsert) and a PATCH.
  it('an import and a PATCH of one of its tokens: both apply, no deadlock', async () => {
    const tenant = freshTenant();
    const token = await service.create(tenant, card('BOTH'));
    const staged = await stage(tenant, [card('BOTH', { contract_reference: 'IMPORTED' }), card('OTHER')]);
    const blocker = await holdRevision(tenant);
    let results: PromiseSettledResult<unknown>[];
    try {
      const importing = staged.commit();
      await lockWaiters(fleet.dataSource, 1);
      const updating = service.update(tenant, token.uuid, { status: 'blocked' });
      await lockWaiters(fleet.dataSource, 2);
      await blocker.release();
      results = await Promise.allSettled([importing, updating]);
    } finally {
      await blocker.release().catch(() => undefined);
    }
    expect(results.map((result) => (result.status === 'rejected' ? answerTo(result.reason) : 'ok'))).toEqual([
      'ok',
      'ok',
    ]);
    expect(await stored(tenant)).toEqual([
      ['BOTH', 'blocked', null],
      ['OTHER', 'accepted', null],
    ]);
  });

  // A create resolves its group after the tenant's revision lock: before it, a group deleted meanwhile was found and
  // the insert failed on the foreign key (a 5xx) instead of the spec's 422 not_found.
  it('a create naming a group deleted meanwhile is 422 not_found on group_id_token', async () => {
    const tenant = freshTenant();
    const group = await service.create(tenant, card('LEAVING'));
    const blocker = await holdRevision(tenant);
    let results: PromiseSettledResult<unknown>[];
    try {
      const deleting = service.delete(tenant, group.uuid);
      await lockWaiters(fleet.dataSource, 1);
      const creating = service.create(
        tenant,
        card('JOINING', { group_id_token: { id_token: 'LEAVING', type: 'iso14443' } }),
      );
      await lockWaiters(fleet.dataSource, 2);
      await blocker.release();
      results = await Promise.allSettled([deleting, creating]);
    } finally {
      await blocker.release().catch(() => undefined);
    }
    expect(results[0].status).toBe('fulfilled');
    expect(results[1].status === 'rejected' && answerTo(results[1].reason)).toEqual({
      code: ErrorCode.ValidationFailed,
      issues: [['group_id_token', 'not_found']],
    });
  });

  // An import resolves its tokens after the revision lock: before it, a group created meanwhile kept the creator's
  // uuid in the upsert while its members pointed at the uuid the import made up (foreign key violation, a 5xx).
  it("an import whose group token a create wrote meanwhile links its members to the group's row", async () => {
    const tenant = freshTenant();
    await service.create(tenant, card('SEED'));
    const staged = await stage(tenant, [
      card('CREW', { group_id_token: { id_token: 'CAPTAIN', type: 'iso14443' } }),
      card('CAPTAIN', { status: 'blocked' }),
    ]);
    const blocker = await holdRevision(tenant);
    let results: PromiseSettledResult<unknown>[];
    try {
      const creating = service.create(tenant, card('CAPTAIN'));
      await lockWaiters(fleet.dataSource, 1);
      const importing = staged.commit();
      await lockWaiters(fleet.dataSource, 2);
      await blocker.release();
      results = await Promise.allSettled([creating, importing]);
    } finally {
      await blocker.release().catch(() => undefined);
    }
    expect(
      results.map((result) => (result.status === 'rejected' ? answerTo(result.reason) : result.value)),
    ).toEqual([expect.objectContaining({ id_token: 'CAPTAIN' }), { created: 1, updated: 1 }]);
    expect(await stored(tenant)).toEqual([
      ['CAPTAIN', 'blocked', null],
      ['CREW', 'accepted', 'CAPTAIN'],
      ['SEED', 'accepted', null],
    ]);
  });

  // created/updated are counted from what the upsert wrote: a token another import wrote meanwhile is replaced.
  it('two imports of one new token: the second answers it as updated', async () => {
    const tenant = freshTenant();
    await service.create(tenant, card('SEED'));
    const first = await stage(tenant, [card('RACE', { status: 'blocked' })]);
    const second = await stage(tenant, [card('RACE', { status: 'expired' })]);
    const blocker = await holdRevision(tenant);
    let results: unknown[];
    try {
      const one = first.commit();
      await lockWaiters(fleet.dataSource, 1);
      const two = second.commit();
      await lockWaiters(fleet.dataSource, 2);
      await blocker.release();
      results = await Promise.all([one, two]);
    } finally {
      await blocker.release().catch(() => undefined);
    }
    expect(await stored(tenant)).toEqual([
      ['RACE', 'expired', null],
      ['SEED', 'accepted', null],
    ]);
    expect(results).toEqual([
      { created: 1, updated: 0 },
      { created: 0, updated: 1 },
    ]);
  });
});

describe('a PATCH', () => {
  // A PATCH checks only the locations it sends: a location deleted since (nothing takes it off the tokens) must not
  // stop the token from being changed, or even blocked.
  it('of status succeeds on a token one of whose allowed locations was deleted since', async () => {
    const tenant = fleet.tenantUuid;
    const closing = randomUUID();
    await fleet.dataSource.query(
      `INSERT INTO assets.locations (uuid, tenant_uuid, name, status, modification_date)
         VALUES ($1, $2, 'Closing', 'active', now())`,
      [closing, tenant],
    );
    const token = await service.create(
      tenant,
      card('TRAVELLER', { allowed_location_uuids: [fleet.locationUuid, closing] }),
    );
    await fleet.dataSource.query(`DELETE FROM assets.locations WHERE uuid = $1`, [closing]);
    const updated = await service.update(tenant, token.uuid, { status: 'blocked' });
    expect(updated.status).toBe('blocked');
  });
});
