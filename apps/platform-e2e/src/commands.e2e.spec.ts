import { randomUUID } from 'node:crypto';
import {
  ApiTestClient,
  AssetsTestData,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';

const COMMANDS = '/api/v1/control/commands';
const SECONDS_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/;

/**
 * The commands API through HTTP: create (202, Location, validation, idempotency), list (every rule of the spec's
 * query), read, permissions and tenancy; every response checked against the served OpenAPI document. The charge
 * points stay offline here (commands wait within their validity); delivery is commands-delivery.e2e.spec.ts.
 */
describe('commands API', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  let readOnlyToken: string;
  let assetsOnlyToken: string;
  let otherTenantToken: string;
  let controllerUuid: string;
  let plugUuid: string;
  let otherControllerUuid: string;

  const post = (body: unknown, headers: Record<string, string> = {}, as = token) =>
    api.call('POST', COMMANDS, { token: as, body, headers });
  const get = (query: string, as = token) => api.call('GET', `${COMMANDS}${query}`, { token: as });
  const waiting = (type = 'soft_reset', target = () => controllerUuid) => ({
    type,
    target_type: 'controller',
    target_uuid: target(),
    valid_for_seconds: 3600,
  });

  beforeAll(async () => {
    platform = await startPlatformUnderTest();
    api = await ApiTestClient.connect(platform.apiUrl);
    const acme = await tenantWithUsers(platform, api, 'acme', {
      operator: 'asset,control:commands',
      auditor: 'control:commands:list,control:commands:read',
      installer: 'asset',
    });
    assetsOnlyToken = acme.installer;
    token = acme.operator;
    readOnlyToken = acme.auditor;
    otherTenantToken = (await tenantWithUsers(platform, api, 'globex', { operator: 'asset,control' }))
      .operator;
    const site = await new AssetsTestData(api, token).site(1);
    controllerUuid = site.controller.uuid;
    plugUuid = site.plugs[0].uuid;
    const otherSite = await new AssetsTestData(api, otherTenantToken).site(0);
    otherControllerUuid = otherSite.controller.uuid;
  }, 180_000);

  afterAll(() => platform?.stop());

  describe('POST', () => {
    it('answers 202 with the command pending, its Location, and reads it back', async () => {
      const response = await post({
        type: 'change_availability',
        target_type: 'connector',
        target_uuid: plugUuid,
        parameters: { availability: 'operative' },
        valid_for_seconds: 600,
      });
      expect(response.status).toBe(202);
      const command = response.body.command;
      expect(command).toEqual({
        command_uuid: expect.any(String),
        target_type: 'connector',
        target_uuid: plugUuid,
        type: 'change_availability',
        status: 'pending',
        result: undefined,
        created_at: expect.stringMatching(SECONDS_DATE_TIME),
        completed_at: undefined,
      });
      expect(response.headers.get('location')).toBe(`${COMMANDS}/${command.command_uuid}`);
      const read = await api.call('GET', response.headers.get('location')!, { token: readOnlyToken });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ command });
    });

    it('answers 422 with one item per problem, each naming its parameter', async () => {
      const response = await post({
        type: 'reserve',
        target_type: 'charging_session',
        target_uuid: 'x',
        parameters: { id_tag: 'A'.repeat(21), expires_at: 'tomorrow', colour: 1 },
        valid_for_seconds: -1,
        priority: 'high',
      });
      expect(response.status).toBe(422);
      expect(
        response.body.errors.map((error: { parameter: string; errorKey: string }) => [
          error.parameter,
          error.errorKey,
        ]),
      ).toEqual(
        expect.arrayContaining([
          ['priority', 'unknown_field'],
          ['type', 'invalid_target_type'],
          ['parameters.id_tag', 'invalid_length'],
          ['parameters.expires_at', 'invalid_date_time'],
          ['parameters.colour', 'unknown_field'],
          ['target_uuid', 'invalid_uuid'],
          ['valid_for_seconds', 'out_of_range'],
        ]),
      );
      expect(response.body.errors).toHaveLength(7);
      for (const body of [undefined, [1], 'text']) {
        const notObject = await api.call(
          'POST',
          COMMANDS,
          body === undefined
            ? { token }
            : { token, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
        );
        expect(notObject.status).toBe(422);
        expect(notObject.body.errors).toEqual([
          { parameter: 'body', errorKey: 'invalid_type', message: 'the body must be a JSON object' },
        ]);
      }
    });

    it('refuses a target of another tenant or none on target_uuid, and a type that does not fit on type', async () => {
      for (const target of [otherControllerUuid, randomUUID()]) {
        const response = await post({ type: 'clear_cache', target_type: 'controller', target_uuid: target });
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          { parameter: 'target_uuid', errorKey: 'not_found', message: expect.any(String) },
        ]);
      }
      const unfit = await post({ type: 'unlock', target_type: 'controller', target_uuid: controllerUuid });
      expect(unfit.status).toBe(422);
      expect(unfit.body.errors).toEqual([
        { parameter: 'type', errorKey: 'invalid_target_type', message: expect.any(String) },
      ]);
    });

    it('Idempotency-Key: a repeat returns the first command; another body with the key is 422', async () => {
      const key = randomUUID();
      const first = await post(waiting(), { 'Idempotency-Key': key });
      expect(first.status).toBe(202);
      const repeat = await post(waiting(), { 'Idempotency-Key': key });
      expect(repeat.status).toBe(202);
      expect(repeat.body).toEqual(first.body);
      expect(repeat.headers.get('location')).toBe(first.headers.get('location'));
      const other = await post(waiting('hard_reset'), { 'Idempotency-Key': key });
      expect(other.status).toBe(422);
      expect(other.body.errors).toEqual([
        { parameter: 'Idempotency-Key', errorKey: 'idempotency_key_reused', message: expect.any(String) },
      ]);
      const listed = await get(`?filter[target_uuid]=${controllerUuid}&limit=50`);
      expect(
        listed.body.commands.filter(
          (command: { command_uuid: string }) => command.command_uuid === first.body.command.command_uuid,
        ),
      ).toHaveLength(1);
      const malformed = await post(waiting(), { 'Idempotency-Key': 'with space' });
      expect(malformed.status).toBe(422);
      expect(malformed.body.errors[0].parameter).toBe('Idempotency-Key');
    });

    it('needs control:commands:create', async () => {
      expect((await post(waiting(), {}, readOnlyToken)).status).toBe(403);
      expect((await api.call('POST', COMMANDS, { body: waiting() })).status).toBe(401);
    });
  });

  describe('GET list', () => {
    const created: string[] = [];
    let listController: string;

    beforeAll(async () => {
      const location = await new AssetsTestData(api, token).location();
      listController = (await new AssetsTestData(api, token).controller(location.uuid)).uuid;
      for (let index = 0; index < 3; index++) {
        const response = await post(
          waiting(index === 1 ? 'clear_cache' : 'soft_reset', () => listController),
        );
        created.push(response.body.command.command_uuid);
      }
    });

    const mine = (query = '') => get(`?filter[target_uuid]=${listController}${query}`, readOnlyToken);

    it('defaults to page 1, limit 20, newest first; pages and orders on request', async () => {
      const all = await mine();
      expect(all.status).toBe(200);
      expect(all.body.commands.map((command: { command_uuid: string }) => command.command_uuid)).toEqual(
        [...created].reverse(),
      );
      expect(all.body.pagination).toEqual({
        page: 1,
        total_pages: 1,
        page_size: 20,
        has_more: false,
        cursor: {},
      });
      const second = await mine('&limit=1&page=2&order_by=%2Bcreated_at');
      expect(second.body.commands.map((command: { command_uuid: string }) => command.command_uuid)).toEqual([
        created[1],
      ]);
      expect(second.body.pagination).toEqual({
        page: 2,
        total_pages: 3,
        page_size: 1,
        has_more: true,
        cursor: { prev: expect.any(String), next: expect.any(String) },
      });
      const repeated = await mine('&limit=2&order_by=-created_at,%2Bcreated_at');
      expect(repeated.body.commands[0].command_uuid).toBe(created[2]);
      const unencodedPlus = await mine('&order_by=+created_at');
      expect(unencodedPlus.body.commands[0].command_uuid).toBe(created[0]);
      const none = await mine('&filter[type]=identify&page=3');
      expect(none.body).toEqual({
        commands: [],
        pagination: { page: 3, total_pages: 1, page_size: 20, has_more: false, cursor: {} },
      });
    });

    it('filters by target_type, type and status', async () => {
      const types = await mine(
        '&filter[type]=clear_cache&filter[target_type]=controller&filter[status]=pending',
      );
      expect(types.body.commands.map((command: { command_uuid: string }) => command.command_uuid)).toEqual([
        created[1],
      ]);
      expect((await mine('&filter[target_type]=connector')).body.commands).toEqual([]);
      expect((await mine('&filter[status]=accepted')).body.commands).toEqual([]);
    });

    it('answers 422 naming the parameter for anything outside the rules', async () => {
      for (const [query, parameter] of [
        ['limit=0', 'limit'],
        ['limit=51', 'limit'],
        ['limit=ten', 'limit'],
        ['page=0', 'page'],
        ['page=1.5', 'page'],
        ['order_by=created_at', 'order_by'],
        ['order_by=-updated_at', 'order_by'],
        ['order_by=-created_at,', 'order_by'],
        ['filter[target_type]=plug', 'filter[target_type]'],
        ['filter[target_uuid]=abc', 'filter[target_uuid]'],
        ['filter[type]=reboot', 'filter[type]'],
        ['filter[status]=done', 'filter[status]'],
        ['filter[colour]=red', 'filter[colour]'],
        ['sort=created_at', 'sort'],
        ['page_size=0', 'page_size'],
        ['page_size=51', 'page_size'],
        ['limit=5&page_size=6', 'page_size'],
        ['cursor=', 'cursor'],
        ['cursor=a%2Bb', 'cursor'],
        ['cursor=abc&page=2', 'cursor'],
      ]) {
        const response = await get(`?${query}`);
        expect([query, response.status]).toEqual([query, 422]);
        expect(response.body.errors).toEqual([expect.objectContaining({ parameter })]);
      }
    });

    it('needs control:commands:list and shows nothing of another tenant', async () => {
      expect((await get('', assetsOnlyToken)).status).toBe(403);
      const other = await get(`?filter[target_uuid]=${listController}`, otherTenantToken);
      expect(other.status).toBe(200);
      expect(other.body.commands).toEqual([]);
    });
  });

  describe('GET list by cursor', () => {
    let walkController: string;
    const uuids = (response: { body: { commands: { command_uuid: string }[] } }) =>
      response.body.commands.map((command) => command.command_uuid);
    const ofWalk = (query: string, as = readOnlyToken) =>
      get(`?filter[target_uuid]=${walkController}&limit=3${query}`, as);
    const createSome = async (count: number) => {
      const made: string[] = [];
      for (let index = 0; index < count; index++)
        made.push((await post(waiting('soft_reset', () => walkController))).body.command.command_uuid);
      return made;
    };

    type ListResponse = Awaited<ReturnType<typeof ofWalk>>;

    /** Follows `pagination.cursor[link]` from `start` until it ends: each page's items in order, and the last page. */
    const walk = async (
      start: ListResponse,
      link: 'next' | 'prev',
      query: string,
      between: () => Promise<unknown> = () => Promise.resolve(),
    ) => {
      const pages = [uuids(start)];
      let last = start;
      let cursor = start.body.pagination.cursor[link] as string | undefined;
      while (cursor !== undefined) {
        await between();
        last = await ofWalk(`${query}&cursor=${cursor}`);
        expect(last.status).toBe(200);
        expect(last.body.pagination).toEqual({
          page_size: 3,
          has_more: expect.any(Boolean),
          cursor: expect.any(Object),
        });
        pages.push(uuids(last));
        cursor = last.body.pagination.cursor[link];
      }
      return { pages, last };
    };

    beforeAll(async () => {
      const location = await new AssetsTestData(api, token).location();
      walkController = (await new AssetsTestData(api, token).controller(location.uuid)).uuid;
    });

    it('walks forwards and back without duplicates or gaps while commands are created', async () => {
      const before = await createSome(8);
      // Newest first: commands created during the walk are newer than every page, so they come before page 1.
      const first = await ofWalk('');
      expect(first.body.pagination).toEqual({
        page: 1,
        total_pages: 3,
        page_size: 3,
        has_more: true,
        cursor: { next: expect.any(String) },
      });
      const made: string[] = [];
      const forwards = await walk(first, 'next', '', async () => made.push(...(await createSome(1))));
      expect(forwards.pages.map((page) => page.length)).toEqual([3, 3, 2]);
      expect(forwards.pages.flat()).toEqual([...before].reverse());
      expect(forwards.last.body.pagination.has_more).toBe(false);
      // Back from the last page: the same pages, then the commands created meanwhile (newer than page 1) first.
      const backwards = await walk(forwards.last, 'prev', '');
      expect(backwards.pages.reverse().flat()).toEqual([...before, ...made].reverse());

      // Oldest first: commands created during the walk join its end, each exactly once.
      const ascending = await ofWalk('&order_by=%2Bcreated_at');
      const added: string[] = [];
      const { pages } = await walk(ascending, 'next', '&order_by=%2Bcreated_at', async () => {
        if (added.length < 2) added.push(...(await createSome(1)));
      });
      const all = pages.flat();
      expect(new Set(all).size).toBe(all.length);
      expect(all).toEqual([...before, ...made, ...added]);
    });

    it('takes page_size as limit', async () => {
      const page = await get(`?filter[target_uuid]=${walkController}&page_size=2`, readOnlyToken);
      expect(page.status).toBe(200);
      expect(page.body.commands).toHaveLength(2);
      expect(page.body.pagination.page_size).toBe(2);
      const both = await get(`?filter[target_uuid]=${walkController}&page_size=2&limit=2`, readOnlyToken);
      expect(both.body.pagination.page_size).toBe(2);
    });

    it('refuses a cursor of another list, filter or tenant, and an altered one, with 422 on cursor', async () => {
      const cursor = (await ofWalk('')).body.pagination.cursor.next as string;
      const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { k: string[] };
      const altered = (key: string[]) =>
        Buffer.from(JSON.stringify({ ...decoded, k: key })).toString('base64url');
      for (const [query, as] of [
        [`?filter[target_uuid]=${walkController}&cursor=${cursor}&filter[status]=pending`, readOnlyToken],
        [`?filter[target_uuid]=${walkController}&cursor=${cursor}&order_by=%2Bcreated_at`, readOnlyToken],
        [`?filter[target_uuid]=${walkController}&cursor=${cursor}`, otherTenantToken],
        [`?cursor=${cursor}`, readOnlyToken],
        [
          `?filter[target_uuid]=${walkController}&cursor=${altered(['yesterday', decoded.k[1]])}`,
          readOnlyToken,
        ],
        [`?filter[target_uuid]=${walkController}&cursor=${altered([decoded.k[0]])}`, readOnlyToken],
        [
          `?filter[target_uuid]=${walkController}&cursor=${Buffer.from('{').toString('base64url')}`,
          readOnlyToken,
        ],
      ] as const) {
        const response = await get(query, as);
        expect([query, response.status]).toEqual([query, 422]);
        expect(response.body.errors).toEqual([
          { parameter: 'cursor', errorKey: 'invalid_cursor', message: expect.any(String) },
        ]);
      }
    });
  });

  describe('GET one', () => {
    it("answers 404 for another tenant's command and a missing one, 422 for a malformed uuid", async () => {
      const { body } = await post(waiting());
      const uuid = body.command.command_uuid as string;
      expect((await get(`/${uuid}`, otherTenantToken)).status).toBe(404);
      expect((await get(`/${randomUUID()}`)).status).toBe(404);
      const malformed = await get('/not-a-uuid');
      expect(malformed.status).toBe(422);
      expect(malformed.body.errors[0].parameter).toBe('uuid');
      expect((await api.call('DELETE', `${COMMANDS}/${uuid}`, { token })).status).toBe(405);
    });
  });
});
