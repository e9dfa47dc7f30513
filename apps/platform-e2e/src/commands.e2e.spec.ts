import { randomUUID } from 'node:crypto';
import type { components, CreateCommandRequest, operations, PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  OpenApiResponseValidator,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';
import { sdkTestUser } from './support/sdk-test-client.js';

const COMMANDS = '/api/v1/control/commands';
const SECONDS_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/;

type ListQuery = NonNullable<operations['listCommands']['parameters']['query']>;
type ListResponse = components['schemas']['CommandListResponse'];

/** The validation issues of a refusal (the spec's `{errors: [...]}`). */
const issuesOf = (error: unknown) => (error as components['schemas']['ValidationErrorsBody']).errors;

/**
 * The commands API through HTTP with the typed SDK (libs/sdk): create (202, Location, validation, idempotency), list
 * (every rule of the spec's query), read, permissions and tenancy; every response checked against the served OpenAPI
 * document. What the typed client cannot send (bodies and queries outside the document, no token at all) goes out
 * untyped, each place saying so. The charge points stay offline here (commands wait within their validity); delivery
 * is commands-delivery.e2e.spec.ts.
 */
describe('commands API', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  /** The users of the tests, by the SDK: operator (assets and commands), auditor (read only), installer (assets). */
  let operator: PlatformClient;
  let auditor: PlatformClient;
  let installer: PlatformClient;
  let otherTenant: PlatformClient;
  let controllerUuid: string;
  let plugUuid: string;
  let otherControllerUuid: string;

  const post = (
    body: CreateCommandRequest,
    headers: { 'Idempotency-Key'?: string } = {},
    as: PlatformClient = operator,
  ) => as.api.POST(COMMANDS, { body, headers });
  const list = (query: ListQuery = {}, as: PlatformClient = operator) =>
    as.api.GET(COMMANDS, { params: { query } });
  /**
   * Untyped escape: the list with a raw query string (values the document does not allow, or an unencoded `+`), which
   * the typed client cannot build; the answer is still checked against the document.
   */
  const listRaw = (query: string, as: PlatformClient = operator) =>
    as.api.GET(COMMANDS, { querySerializer: () => query });
  const waiting = (
    type: 'soft_reset' | 'hard_reset' | 'clear_cache' = 'soft_reset',
    target = () => controllerUuid,
  ): CreateCommandRequest => ({
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
    token = acme.operator;
    const otherTenantToken = (await tenantWithUsers(platform, api, 'globex', { operator: 'asset,control' }))
      .operator;
    const validator = await OpenApiResponseValidator.fetch(platform.apiUrl);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator', validator);
    auditor = await sdkTestUser(platform.apiUrl, 'acme', 'auditor', validator);
    installer = await sdkTestUser(platform.apiUrl, 'acme', 'installer', validator);
    otherTenant = await sdkTestUser(platform.apiUrl, 'globex', 'operator', validator);
    const site = await new AssetsTestData(api, token).site(1);
    controllerUuid = site.controller.uuid;
    plugUuid = site.plugs[0].uuid;
    const otherSite = await new AssetsTestData(api, otherTenantToken).site(0);
    otherControllerUuid = otherSite.controller.uuid;
  }, 180_000);

  afterAll(() => platform?.stop());

  describe('POST', () => {
    it('answers 202 with the command pending, its Location, and reads it back', async () => {
      const { data, response } = await post({
        type: 'change_availability',
        target_type: 'connector',
        target_uuid: plugUuid,
        parameters: { availability: 'operative' },
        valid_for_seconds: 600,
      });
      expect(response.status).toBe(202);
      const command = data!.command;
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
      const read = await auditor.api.GET('/api/v1/control/commands/{uuid}', {
        params: { path: { uuid: command.command_uuid } },
      });
      expect(read.response.status).toBe(200);
      expect(read.response.url).toBe(`${platform.apiUrl}${response.headers.get('location')}`);
      expect(read.data).toEqual({ command });
    });

    it('answers 422 with one item per problem, each naming its parameter', async () => {
      // Untyped escape: a body the document refuses in every field, to see each refusal named.
      const { error, response } = await post({
        type: 'reserve',
        target_type: 'charging_session',
        target_uuid: 'x',
        parameters: { id_tag: 'A'.repeat(21), expires_at: 'tomorrow', colour: 1 },
        valid_for_seconds: -1,
        priority: 'high',
      } as unknown as CreateCommandRequest);
      expect(response.status).toBe(422);
      expect(issuesOf(error).map((issue) => [issue.parameter, issue.errorKey])).toEqual(
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
      expect(issuesOf(error)).toHaveLength(7);
      // Untyped escape: no body, or JSON that is no object, which the typed client cannot send.
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
        const { error, response } = await post({
          type: 'clear_cache',
          target_type: 'controller',
          target_uuid: target,
        });
        expect(response.status).toBe(422);
        expect(issuesOf(error)).toEqual([
          { parameter: 'target_uuid', errorKey: 'not_found', message: expect.any(String) },
        ]);
      }
      // Untyped escape: unlock addresses connectors only, so the typed body cannot name a controller.
      const unfit = await post({
        type: 'unlock',
        target_type: 'controller',
        target_uuid: controllerUuid,
      } as unknown as CreateCommandRequest);
      expect(unfit.response.status).toBe(422);
      expect(issuesOf(unfit.error)).toEqual([
        { parameter: 'type', errorKey: 'invalid_target_type', message: expect.any(String) },
      ]);
    });

    it('Idempotency-Key: a repeat returns the first command; another body with the key is 422', async () => {
      const key = randomUUID();
      const first = await post(waiting(), { 'Idempotency-Key': key });
      expect(first.response.status).toBe(202);
      const repeat = await post(waiting(), { 'Idempotency-Key': key });
      expect(repeat.response.status).toBe(202);
      expect(repeat.data).toEqual(first.data);
      expect(repeat.response.headers.get('location')).toBe(first.response.headers.get('location'));
      const other = await post(waiting('hard_reset'), { 'Idempotency-Key': key });
      expect(other.response.status).toBe(422);
      expect(issuesOf(other.error)).toEqual([
        { parameter: 'Idempotency-Key', errorKey: 'idempotency_key_reused', message: expect.any(String) },
      ]);
      const listed = await list({ 'filter[target_uuid]': controllerUuid, limit: 50 });
      expect(
        listed.data!.commands.filter((command) => command.command_uuid === first.data!.command.command_uuid),
      ).toHaveLength(1);
      const malformed = await post(waiting(), { 'Idempotency-Key': 'with space' });
      expect(malformed.response.status).toBe(422);
      expect(issuesOf(malformed.error)[0].parameter).toBe('Idempotency-Key');
    });

    it('needs control:commands:create', async () => {
      expect((await post(waiting(), {}, auditor)).response.status).toBe(403);
      // Untyped escape: the SDK always signs its requests; this one carries no token at all.
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
        const { data } = await post(
          waiting(index === 1 ? 'clear_cache' : 'soft_reset', () => listController),
        );
        created.push(data!.command.command_uuid);
      }
    });

    const mine = (query: ListQuery = {}) =>
      list({ 'filter[target_uuid]': listController, ...query }, auditor);
    const uuids = (body: ListResponse | undefined) => body!.commands.map((command) => command.command_uuid);

    it('defaults to page 1, limit 20, newest first; pages and orders on request', async () => {
      const all = await mine();
      expect(all.response.status).toBe(200);
      expect(uuids(all.data)).toEqual([...created].reverse());
      expect(all.data!.pagination).toEqual({
        page: 1,
        total_pages: 1,
        page_size: 20,
        has_more: false,
        cursor: {},
      });
      const second = await mine({ limit: 1, page: 2, order_by: '+created_at' });
      expect(uuids(second.data)).toEqual([created[1]]);
      expect(second.data!.pagination).toEqual({
        page: 2,
        total_pages: 3,
        page_size: 1,
        has_more: true,
        cursor: { prev: expect.any(String), next: expect.any(String) },
      });
      const repeated = await mine({ limit: 2, order_by: '-created_at,+created_at' });
      expect(repeated.data!.commands[0].command_uuid).toBe(created[2]);
      // An unencoded + (a space once decoded) is read as +.
      const unencodedPlus = await listRaw(
        `filter[target_uuid]=${listController}&order_by=+created_at`,
        auditor,
      );
      expect(unencodedPlus.data!.commands[0].command_uuid).toBe(created[0]);
      const none = await mine({ 'filter[type]': 'identify', page: 3 });
      expect(none.data).toEqual({
        commands: [],
        pagination: { page: 3, total_pages: 1, page_size: 20, has_more: false, cursor: {} },
      });
    });

    it('filters by target_type, type and status', async () => {
      const types = await mine({
        'filter[type]': 'clear_cache',
        'filter[target_type]': 'controller',
        'filter[status]': 'pending',
      });
      expect(uuids(types.data)).toEqual([created[1]]);
      expect((await mine({ 'filter[target_type]': 'connector' })).data!.commands).toEqual([]);
      expect((await mine({ 'filter[status]': 'accepted' })).data!.commands).toEqual([]);
    });

    it('answers 422 naming the parameter for anything outside the rules', async () => {
      // Untyped escape: each query breaks a rule of the document, which the typed client would not let through.
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
        const { error, response } = await listRaw(query);
        expect([query, response.status]).toEqual([query, 422]);
        expect(issuesOf(error)).toEqual([expect.objectContaining({ parameter })]);
      }
    });

    it('needs control:commands:list and shows nothing of another tenant', async () => {
      expect((await list({}, installer)).response.status).toBe(403);
      const other = await list({ 'filter[target_uuid]': listController }, otherTenant);
      expect(other.response.status).toBe(200);
      expect(other.data!.commands).toEqual([]);
    });
  });

  describe('GET list by cursor', () => {
    let walkController: string;
    const uuids = (body: ListResponse | undefined) => body!.commands.map((command) => command.command_uuid);
    const ofWalk = (query: ListQuery = {}, as: PlatformClient = auditor) =>
      list({ 'filter[target_uuid]': walkController, limit: 3, ...query }, as);
    const createSome = async (count: number) => {
      const made: string[] = [];
      for (let index = 0; index < count; index++)
        made.push((await post(waiting('soft_reset', () => walkController))).data!.command.command_uuid);
      return made;
    };

    type WalkPage = Awaited<ReturnType<typeof ofWalk>>;

    /** Follows `pagination.cursor[link]` from `start` until it ends: each page's items in order, and the last page. */
    const walk = async (
      start: WalkPage,
      link: 'next' | 'prev',
      query: ListQuery,
      between: () => Promise<unknown> = () => Promise.resolve(),
    ) => {
      const pages = [uuids(start.data)];
      let last = start;
      let cursor = start.data!.pagination.cursor[link];
      while (cursor !== undefined) {
        await between();
        last = await ofWalk({ ...query, cursor });
        expect(last.response.status).toBe(200);
        expect(last.data!.pagination).toEqual({
          page_size: 3,
          has_more: expect.any(Boolean),
          cursor: expect.any(Object),
        });
        pages.push(uuids(last.data));
        cursor = last.data!.pagination.cursor[link];
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
      const first = await ofWalk();
      expect(first.data!.pagination).toEqual({
        page: 1,
        total_pages: 3,
        page_size: 3,
        has_more: true,
        cursor: { next: expect.any(String) },
      });
      const made: string[] = [];
      const forwards = await walk(first, 'next', {}, async () => made.push(...(await createSome(1))));
      expect(forwards.pages.map((page) => page.length)).toEqual([3, 3, 2]);
      expect(forwards.pages.flat()).toEqual([...before].reverse());
      expect(forwards.last.data!.pagination.has_more).toBe(false);
      // Back from the last page: the same pages, then the commands created meanwhile (newer than page 1) first.
      const backwards = await walk(forwards.last, 'prev', {});
      expect(backwards.pages.reverse().flat()).toEqual([...before, ...made].reverse());

      // Oldest first: commands created during the walk join its end, each exactly once.
      const ascending = await ofWalk({ order_by: '+created_at' });
      const added: string[] = [];
      const { pages } = await walk(ascending, 'next', { order_by: '+created_at' }, async () => {
        if (added.length < 2) added.push(...(await createSome(1)));
      });
      const all = pages.flat();
      expect(new Set(all).size).toBe(all.length);
      expect(all).toEqual([...before, ...made, ...added]);
    });

    it('takes page_size as limit', async () => {
      const page = await list({ 'filter[target_uuid]': walkController, page_size: 2 }, auditor);
      expect(page.response.status).toBe(200);
      expect(page.data!.commands).toHaveLength(2);
      expect(page.data!.pagination.page_size).toBe(2);
      const both = await list({ 'filter[target_uuid]': walkController, page_size: 2, limit: 2 }, auditor);
      expect(both.data!.pagination.page_size).toBe(2);
    });

    it('refuses a cursor of another list, filter or tenant, and an altered one, with 422 on cursor', async () => {
      const cursor = (await ofWalk()).data!.pagination.cursor.next!;
      const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { k: string[] };
      const altered = (key: string[]) =>
        Buffer.from(JSON.stringify({ ...decoded, k: key })).toString('base64url');
      const mine = { 'filter[target_uuid]': walkController };
      for (const [label, query, as] of [
        ['another filter', { ...mine, cursor, 'filter[status]': 'pending' }, auditor],
        ['another order', { ...mine, cursor, order_by: '+created_at' }, auditor],
        ['another tenant', { ...mine, cursor }, otherTenant],
        ['another list', { cursor }, auditor],
        ['an altered time', { ...mine, cursor: altered(['yesterday', decoded.k[1]]) }, auditor],
        ['a short key', { ...mine, cursor: altered([decoded.k[0]]) }, auditor],
        ['broken JSON', { ...mine, cursor: Buffer.from('{').toString('base64url') }, auditor],
      ] as const) {
        const { error, response } = await list(query, as);
        expect([label, response.status]).toEqual([label, 422]);
        expect(issuesOf(error)).toEqual([
          { parameter: 'cursor', errorKey: 'invalid_cursor', message: expect.any(String) },
        ]);
      }
    });
  });

  describe('GET one', () => {
    it("answers 404 for another tenant's command and a missing one, 422 for a malformed uuid", async () => {
      const { data } = await post(waiting());
      const uuid = data!.command.command_uuid;
      const read = (of: string, as: PlatformClient = operator) =>
        as.api.GET('/api/v1/control/commands/{uuid}', { params: { path: { uuid: of } } });
      expect((await read(uuid, otherTenant)).response.status).toBe(404);
      expect((await read(randomUUID())).response.status).toBe(404);
      const malformed = await read('not-a-uuid');
      expect(malformed.response.status).toBe(422);
      expect(issuesOf(malformed.error)[0].parameter).toBe('uuid');
      // Untyped escape: DELETE is no operation of the document, so the typed client has no such call.
      expect((await api.call('DELETE', `${COMMANDS}/${uuid}`, { token })).status).toBe(405);
    });
  });
});
