import {
  type ApiResponse,
  ApiTestClient,
  AssetsTestData,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  unique,
} from '@cpc/testing';

/**
 * The spec's cursor style on the asset lists and the id tokens, through the gateway: a walk by cursor forwards and
 * back meets every row once, in the order of the numbered pages, while rows are created during it; a cursor is only
 * good for its own list, tenant, filter and order; `cursor` and `page` exclude each other.
 */

interface Row {
  uuid: string;
}

interface PageBody {
  pagination: {
    page?: number;
    page_size: number;
    has_more: boolean;
    cursor?: { next?: string; prev?: string };
  };
  errors?: { parameter: string; errorKey: string }[];
}

type Page = ApiResponse<Record<string, unknown> & PageBody>;

/** One list under test: its path, the key of its items, a field to sort by, and how to add rows to one filtered view. */
interface ListCase {
  path: string;
  key: string;
  sortField: string;
  /** A filter that holds only the rows `add` creates, and `add` itself (`name` null: none, where the list allows). */
  prepare(): Promise<{ filter: string; add: (name: string | null) => Promise<unknown> }>;
}

const NAMES = ['mango', 'cherry', 'mango', 'apple', 'cherry', 'kiwi', 'mango'];

describe('asset lists by cursor', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let ops: string;
  let rival: string;
  let data: AssetsTestData;

  const get = (path: string, query: string, token = ops): Promise<Page> =>
    api.call('GET', `${path}?${query}`, { token });

  const uuids = (page: Page, key: string) => (page.body[key] as Row[]).map((row) => row.uuid);

  /** Follows `pagination.cursor[link]` from `start` until it ends; `between` runs after the first page. */
  async function walk(
    list: ListCase,
    query: string,
    start: Page,
    link: 'next' | 'prev',
    between: () => Promise<unknown> = () => Promise.resolve(),
  ): Promise<{ pages: string[][]; last: Page }> {
    const pages = [uuids(start, list.key)];
    let last = start;
    await between();
    for (let cursor = start.body.pagination.cursor?.[link]; cursor !== undefined;) {
      last = await get(list.path, `${query}&cursor=${cursor}`);
      expect(last.status).toBe(200);
      // A page read by cursor has no page numbers.
      expect(Object.keys(last.body.pagination).sort()).toEqual(['cursor', 'has_more', 'page_size']);
      pages.push(uuids(last, list.key));
      cursor = last.body.pagination.cursor?.[link];
      expect(pages.length).toBeLessThan(20);
    }
    return { pages, last };
  }

  /** A 422 on `cursor` (errorKey invalid_cursor unless told), with no items of any tenant. */
  const expectRefused = (page: Page, key: string, errorKey: unknown = 'invalid_cursor') => {
    expect(page.status).toBe(422);
    expect(page.body.errors).toEqual([expect.objectContaining({ parameter: 'cursor', errorKey })]);
    expect(page.body).not.toHaveProperty(key);
  };

  beforeAll(async () => {
    platform = await startPlatformUnderTest({ services: ['auth-service', 'assets-service', 'api-gateway'] });
    api = await ApiTestClient.connect(platform.apiUrl);
    ({ ops } = await tenantWithUsers(platform, api, 'acme', { ops: 'authorization,asset' }));
    ({ rival } = await tenantWithUsers(platform, api, 'rival', { rival: 'authorization,asset' }));
    data = new AssetsTestData(api, ops);
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  });

  const LISTS: ListCase[] = [
    {
      path: '/api/v1/assets/locations',
      key: 'locations',
      sortField: 'name',
      prepare: () => {
        const city = unique('Town');
        return Promise.resolve({
          filter: `filter[city]=${city}`,
          add: (name) => data.location({ name, city }),
        });
      },
    },
    {
      path: '/api/v1/assets/controllers',
      key: 'controllers',
      sortField: 'name',
      prepare: async () => {
        const location = await data.location();
        return {
          filter: `filter[location_uuid]=${location.uuid}`,
          add: (name) => data.controller(location.uuid, { name }),
        };
      },
    },
    {
      path: '/api/v1/assets/plugs',
      key: 'plugs',
      sortField: 'name',
      prepare: async () => {
        const controller = await data.controller((await data.location()).uuid);
        let connectorId = 0;
        return {
          filter: `filter[controller_uuid]=${controller.uuid}`,
          // A plug's name is optional: every third one has none, so NULL names are walked over too.
          add: (name) => {
            connectorId += 1;
            return data.plug(controller.uuid, connectorId, connectorId % 3 === 0 ? {} : { name });
          },
        };
      },
    },
    {
      path: '/api/v1/assets/sensors',
      key: 'sensors',
      sortField: 'name',
      prepare: async () => {
        const location = await data.location();
        return {
          filter: `filter[location_uuid]=${location.uuid}`,
          add: (name) => data.sensor({ location_uuid: location.uuid }, { name }),
        };
      },
    },
    {
      path: '/api/v1/authorization/id-tokens',
      key: 'id_tokens',
      sortField: 'id_token',
      prepare: () => {
        const reference = unique('contract');
        return Promise.resolve({
          filter: `filter[contract_reference]=${reference}`,
          add: async (name) => {
            const response = await api.call('POST', '/api/v1/authorization/id-tokens', {
              token: ops,
              body: { id_token: unique(name ?? 'tag'), type: 'iso14443', contract_reference: reference },
            });
            expect(response.status).toBe(201);
          },
        });
      },
    },
  ];

  describe.each(LISTS.map((list) => [list.key, list] as const))('%s', (_key, list) => {
    let filter: string;
    let add: (name: string | null) => Promise<unknown>;

    beforeAll(async () => {
      ({ filter, add } = await list.prepare());
      for (const name of NAMES) await add(name);
    });

    it('walks newest first forwards and back, rows created during the walk shifting nothing', async () => {
      const before = await get(list.path, `${filter}&limit=50`);
      const all = uuids(before, list.key);
      expect(all).toHaveLength(NAMES.length);
      const query = `${filter}&limit=3`;
      const first = await get(list.path, query);
      expect(first.body.pagination).toEqual({
        page: 1,
        total_pages: 3,
        page_size: 3,
        has_more: true,
        cursor: { next: expect.any(String) },
      });
      // Two rows arrive after the first page was read: newest first, they are ahead of it.
      const forwards = await walk(list, query, first, 'next', async () => {
        await add('zebra');
        await add('aardvark');
      });
      expect(forwards.pages.map((page) => page.length)).toEqual([3, 3, 1]);
      expect(forwards.pages.flat()).toEqual(all);
      expect(forwards.last.body.pagination.has_more).toBe(false);
      expect(forwards.last.body.pagination.cursor).toEqual({ prev: expect.any(String) });

      // Back from the last page: every row once, the two new ones included, in the list's order.
      const now = uuids(await get(list.path, `${filter}&limit=50`), list.key);
      expect(now.slice(2)).toEqual(all);
      const backwards = await walk(list, query, forwards.last, 'prev');
      expect(backwards.pages.reverse().flat()).toEqual(now);
    });

    it(`walks an order_by of ${list.sortField} and created_at in both directions`, async () => {
      for (const order of [`%2B${list.sortField},-created_at`, `-${list.sortField},%2Bcreated_at`]) {
        const query = `${filter}&order_by=${order}&limit=2`;
        const expected = uuids(await get(list.path, `${filter}&order_by=${order}&limit=50`), list.key);
        expect(expected.length).toBeGreaterThanOrEqual(NAMES.length);
        const forwards = await walk(list, query, await get(list.path, query), 'next');
        expect([order, forwards.pages.flat()]).toEqual([order, expected]);
        const backwards = await walk(list, query, forwards.last, 'prev');
        expect([order, backwards.pages.reverse().flat()]).toEqual([order, expected]);
        // A numbered page carries cursors that go on from it.
        const second = await get(list.path, `${query}&page=2`);
        const third = await get(list.path, `${query}&cursor=${second.body.pagination.cursor?.next}`);
        expect(uuids(third, list.key)).toEqual(expected.slice(4, 6));
      }
    });

    it("refuses another tenant's cursor, another filter's or order's, garbage, and cursor with page", async () => {
      const first = await get(list.path, `${filter}&limit=2`);
      const next = first.body.pagination.cursor?.next;
      expect(next).toEqual(expect.any(String));
      // The rival sends the same list and filter with the cursor: refused, not a page of either tenant.
      expectRefused(await get(list.path, `${filter}&limit=2&cursor=${next}`, rival), list.key);
      expectRefused(await get(list.path, `limit=2&cursor=${next}`), list.key);
      expectRefused(
        await get(list.path, `${filter}&order_by=%2Bcreated_at&limit=2&cursor=${next}`),
        list.key,
      );
      expectRefused(await get(list.path, `${filter}&limit=2&cursor=bm90LWEtY3Vyc29y`), list.key);
      // The gateway refuses both together, before the service sees the cursor.
      expectRefused(
        await get(list.path, `${filter}&limit=2&cursor=${next}&page=2`),
        list.key,
        expect.any(String),
      );
      // The cursor itself still works for its own list.
      expect((await get(list.path, `${filter}&limit=2&cursor=${next}`)).status).toBe(200);
    });
  });

  it("refuses one list's cursor on another", async () => {
    const locations = await get('/api/v1/assets/locations', 'limit=1');
    const next = locations.body.pagination.cursor?.next;
    expect(next).toEqual(expect.any(String));
    expectRefused(await get('/api/v1/assets/controllers', `limit=1&cursor=${next}`), 'controllers');
    expectRefused(await get('/api/v1/assets/sensors', `limit=1&cursor=${next}`), 'sensors');
  });
});
