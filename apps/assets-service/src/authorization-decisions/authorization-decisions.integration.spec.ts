import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  type AuthorizationDecisionsEvent,
  type AuthorizationDecisionPage,
  AuthorizationSubjects,
  ErrorCode,
  type ListAuthorizationDecisionsPayload,
} from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { eventually, type ServiceTestRig } from '@cpc/testing';
import { startAssetsServiceRig } from '../testing/assets-service-rig.js';

jest.setTimeout(60_000);

let rig: ServiceTestRig;

const tenantA = randomUUID();
const tenantB = randomUUID();
const controllerUuid = randomUUID();
const otherControllerUuid = randomUUID();
const locationUuid = randomUUID();

/** The decisions stored, newest first as the log lists them by default: [uuid, decided_at]. */
const stored: { uuid: string; at: string; controller: string }[] = [];

function list(
  request: Partial<ListAuthorizationDecisionsPayload> = {},
  tenantUuid = tenantA,
): Promise<AuthorizationDecisionPage> {
  return rig.call<AuthorizationDecisionPage>(
    AuthorizationSubjects.listDecisions,
    { page: 1, limit: 50, orderBy: [], filter: {}, ...request },
    tenantUuid,
  );
}

async function decide(at: string, controller = controllerUuid, tenantUuid = tenantA): Promise<string> {
  const decisionUuid = randomUUID();
  const event: AuthorizationDecisionsEvent = {
    eventId: randomUUID(),
    occurredAt: at,
    tenantUuid,
    data: {
      decisions: [
        {
          decisionUuid,
          decidedAt: at,
          controllerUuid: controller,
          ocppIdentity: 'CP-1',
          locationUuid,
          idToken: 'TAG-1',
          type: null,
          tokenUuid: null,
          result: 'accepted',
          reason: 'known_token',
          messageKind: 'authorize',
        },
      ],
    },
  };
  await rig.eventBus.publish(AuthorizationSubjects.decisionsMade, event);
  return decisionUuid;
}

const uuids = (page: AuthorizationDecisionPage) => page.items.map((item) => item.uuid);

/** Follows `pagination.cursor[link]` from `start` until it ends: each page's uuids, and the last page. */
async function walk(
  start: AuthorizationDecisionPage,
  link: 'next' | 'prev',
  request: Partial<ListAuthorizationDecisionsPayload>,
): Promise<{ pages: string[][]; last: AuthorizationDecisionPage }> {
  const pages = [uuids(start)];
  let last = start;
  let cursor = start.pagination.cursor?.[link];
  while (cursor !== undefined) {
    last = await list({ ...request, cursor });
    expect(last.pagination).toEqual({
      page_size: request.limit,
      has_more: expect.any(Boolean),
      cursor: expect.any(Object),
    });
    pages.push(uuids(last));
    cursor = last.pagination.cursor?.[link];
  }
  return { pages, last };
}

beforeAll(async () => {
  rig = await startAssetsServiceRig({ OCPP_PASSWORD_SCRYPT_LOG2_N: '10' });
  // Seven decisions of one controller, two of them at the same instant (their order is by uuid), and one of another.
  const times = ['01', '02', '03', '03', '04', '05', '06'].map((second) => `2026-03-01T10:00:${second}.000Z`);
  for (const at of times) stored.push({ uuid: await decide(at), at, controller: controllerUuid });
  stored.push({
    uuid: await decide('2026-03-01T10:00:02.500Z', otherControllerUuid),
    at: '2026-03-01T10:00:02.500Z',
    controller: otherControllerUuid,
  });
  await decide('2026-03-01T10:00:03.000Z', controllerUuid, tenantB);
  await eventually(
    () => list(),
    (page) => page.items.length === stored.length,
  );
});

afterAll(() => rig?.stop());

describe('the authorization decision log by cursor', () => {
  it('walks newest first forwards and back by cursor, each decision once, as the numbered pages list them', async () => {
    const all = uuids(await list());
    expect(new Set(all)).toEqual(new Set(stored.map((decision) => decision.uuid)));
    const first = await list({ limit: 3 });
    expect(first.pagination).toEqual({
      page: 1,
      total_pages: 3,
      page_size: 3,
      has_more: true,
      cursor: { next: expect.any(String) },
    });
    const forwards = await walk(first, 'next', { limit: 3 });
    expect(forwards.pages.map((page) => page.length)).toEqual([3, 3, 2]);
    expect(forwards.pages.flat()).toEqual(all);
    expect(forwards.last.pagination).toEqual({
      page_size: 3,
      has_more: false,
      cursor: { prev: expect.any(String) },
    });
    const backwards = await walk(forwards.last, 'prev', { limit: 3 });
    expect(backwards.pages.reverse()).toEqual(forwards.pages);
  });

  it('walks oldest first, and keeps the filters on every page', async () => {
    const oldestFirst = [
      { field: 'decided_at', direction: 'asc' },
    ] as ListAuthorizationDecisionsPayload['orderBy'];
    const all = uuids(await list({ orderBy: oldestFirst }));
    expect(all).toEqual([...uuids(await list())].reverse());
    const forwards = await walk(await list({ orderBy: oldestFirst, limit: 2 }), 'next', {
      orderBy: oldestFirst,
      limit: 2,
    });
    expect(forwards.pages.flat()).toEqual(all);

    const filter = { controller_uuid: controllerUuid, decided_from: '2026-03-01T10:00:02Z' };
    const filtered = uuids(await list({ filter }));
    expect(filtered).toHaveLength(6);
    const byFilter = await walk(await list({ filter, limit: 2 }), 'next', { filter, limit: 2 });
    expect(byFilter.pages.flat()).toEqual(filtered);
  });

  it("refuses another filter's, order's or tenant's cursor and a malformed one as a validation error on cursor", async () => {
    const cursor = (await list({ limit: 2 })).pagination.cursor?.next as string;
    for (const attempt of [
      () => list({ limit: 2, cursor, filter: { result: 'accepted' } }),
      () => list({ limit: 2, cursor, orderBy: [{ field: 'decided_at', direction: 'asc' }] }),
      () => list({ limit: 2, cursor }, tenantB),
      () => list({ limit: 2, cursor: 'not-a-cursor' }),
      () => list({ limit: 2, cursor: Buffer.from('{"v":1}').toString('base64url') }),
    ]) {
      const failure = await attempt().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DomainError);
      expect((failure as DomainError).code).toBe(ErrorCode.ValidationFailed);
      expect((failure as DomainError).issues).toEqual([
        expect.objectContaining({ parameter: 'cursor', errorKey: 'invalid_cursor' }),
      ]);
    }
  });
});
