import { request as httpRequest } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import fc from 'fast-check';
import {
  ApiTestClient,
  AssetsTestData,
  fullLocationBody,
  OCPP_PASSWORD,
  OpenApiResponseValidator,
  type PlatformUnderTest,
  startPlatformUnderTest,
  USER_PASSWORD,
  usersWithRoles,
} from '@cpc/testing';
import { expectServicesSurvived, FUZZED_SERVICES, fuzzParameters, fuzzTimeoutMs } from './support/fuzzing.js';

const RUNS = 120;
const RAW_RUNS = 40;
/** Just over the gateway's default body limit (1 MiB). */
const HUGE = 1024 * 1024 + 10;

const ROUTED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'];
const METHODS = [...ROUTED_METHODS, 'PROPFIND', 'FOO'];

interface RawResponse {
  status: number;
  contentType: string;
  text: string;
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

/** One request exactly as generated (node:http does not normalise paths or methods), answer as text. */
function send(apiUrl: string, fuzz: FuzzRequest): Promise<RawResponse> {
  const url = new URL(apiUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        agent: false,
        method: fuzz.method,
        path: fuzz.path,
        // Framed by Content-Length, so a body on GET is a body and not the start of a next request.
        headers:
          fuzz.body === undefined
            ? fuzz.headers
            : { ...fuzz.headers, 'content-length': String(Buffer.byteLength(fuzz.body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    // The server may answer (413, 415) before a huge body is written, then reads and drops the rest (a lingering close):
    // the answer must arrive and the write must not fail, so a request error (EPIPE, ECONNRESET) is a failure.
    req.on('error', reject);
    req.end(fuzz.body);
  });
}

const isString = (value: unknown) => typeof value === 'string';

/** The spec's error bodies: `{error}` (a 403 may add `pagination`) or `{errors: [{errorKey, message, parameter}]}`. */
function isSpecErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record);
  if ('error' in record)
    return isString(record.error) && keys.every((key) => ['error', 'pagination'].includes(key));
  return (
    keys.length === 1 &&
    Array.isArray(record.errors) &&
    record.errors.length > 0 &&
    record.errors.every(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        Object.keys(item).length === 3 &&
        ['errorKey', 'message', 'parameter'].every((key) => isString((item as Record<string, unknown>)[key])),
    )
  );
}

/** What every answer must be: no 5xx; a 4xx carries a spec error body; a documented route answers as documented. */
function checkResponse(validator: OpenApiResponseValidator, fuzz: FuzzRequest, response: RawResponse): void {
  const context = `${fuzz.method} ${fuzz.path.slice(0, 300)} → ${response.status} ${response.text.slice(0, 300)}`;
  if (response.status >= 500 || response.status < 100) throw new Error(`server error: ${context}`);
  if (fuzz.method === 'HEAD') return;
  let body: unknown;
  if (response.text !== '') {
    if (!response.contentType.startsWith('application/json')) {
      if (response.status >= 400) throw new Error(`error body is not JSON: ${context}`);
      return; // the documentation pages
    }
    body = JSON.parse(response.text);
  }
  if (response.status >= 400 && !isSpecErrorBody(body)) throw new Error(`not a spec error body: ${context}`);
  // The router ignores one trailing slash; the document's templates have none.
  const pathname = fuzz.path.split('?')[0].replace(/(.)\/$/, '$1');
  // Node's parser answers 431 and unknown methods before any route is looked up, so no operation documents them; the
  // validator's URL parsing would resolve dot segments that the server rightly takes literally.
  const beforeRouting = response.status === 431 || !ROUTED_METHODS.includes(fuzz.method);
  const dotSegment = pathname.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
  const documented = pathname.startsWith('/api/v1/') && pathname !== '/api/v1/openapi.json';
  if (documented && !beforeRouting && !dotSegment) {
    try {
      validator.validate(
        fuzz.method,
        `http://localhost${encodeURI(decodeURI(pathname))}`,
        response.status,
        body,
      );
    } catch (error) {
      if (error instanceof URIError) return; // a path that is not percent-encoded text has no template to check
      // An undocumented path or method may be refused for its body (415) before the 404/405: any 4xx does.
      if (/no such (path|operation)/.test((error as Error).message) && response.status < 500) return;
      throw new Error(`${(error as Error).message}: ${context}`);
    }
  }
}

/** Query keys as clients write them, with bracket notation and the shapes qs turns into objects and arrays. */
const queryKey = fc.oneof(
  fc.constantFrom(
    'limit',
    'page',
    'order_by',
    'page_size',
    'offset',
    'cursor',
    'filter',
    'filter[]',
    'filter[status]',
    'filter[type]',
    'filter[target_type]',
    'filter[target_uuid]',
    'filter[name]',
    'filter[location_uuid]',
    'filter[controller_uuid]',
    'filter[started_from]',
    'filter[status][]',
    'filter[status][0]',
    'filter[status][a]',
    'filter[a][b][c]',
    'filter[__proto__]',
    'filter[constructor]',
    '__proto__[polluted]',
    'constructor[prototype][polluted]',
    'limit[]',
    'limit[0]',
    'page[a]',
    'order_by[]',
    '[]',
    '][',
    'filter]',
    'filter[',
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

const queryValue = fc.oneof(
  fc.constantFrom(
    '',
    '1',
    '0',
    '-1',
    '50',
    '51',
    '1e3',
    '2.5',
    '99999999999999999999',
    'NaN',
    'true',
    'null',
    '%2Bcreated_at',
    '-created_at',
    '+created_at',
    '%2Bname,-created_at',
    'created_at',
    '-created_at,',
    'pending',
    'controller',
    'soft_reset',
    '2026-01-01T00:00:00Z',
    'not-a-date',
    '00000000-0000-0000-0000-000000000000',
    '%ZZ',
    '%00',
    '%',
  ),
  fc.string({ maxLength: 40, unit: 'grapheme' }).map(encodeURIComponent),
  fc.integer({ min: 1000, max: 20_000 }).map((length) => 'x'.repeat(length)),
);

const queryString = fc
  .array(
    fc.oneof(
      fc.tuple(queryKey, queryValue).map(([key, value]) => `${key}=${value}`),
      queryKey,
    ),
    { maxLength: 8 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));

/** A path parameter: real ids, UUID look-alikes, and text that is no UUID at all. */
function pathParameter(realUuids: string[]) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...realUuids) },
    { weight: 2, arbitrary: fc.uuid() },
    fc.uuid().map((uuid) => uuid.toUpperCase()),
    fc.constantFrom(
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      'null',
      'undefined',
      '0',
      '-1',
      '..',
      '.',
      '%2F',
      '%2e%2e',
      '%00',
      '%ZZ',
      '%',
      '{uuid}',
      ':uuid',
      '*',
    ),
    fc.string({ maxLength: 60, unit: 'grapheme' }).map(encodeURIComponent),
    fc.integer({ min: 2000, max: 10_000 }).map((length) => 'a'.repeat(length)),
  );
}

/** Bodies from valid ones: fields changed to other types, removed, unknown ones added. */
function mutatedBody(base: Record<string, unknown>) {
  const keys = Object.keys(base);
  return fc
    .record({
      replaced: fc.dictionary(
        keys.length > 0 ? fc.constantFrom(...keys) : fc.string(),
        fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'grapheme', maxLength: 300 })),
        { maxKeys: 3 },
      ),
      removed: fc.subarray(keys, { maxLength: Math.min(2, keys.length) }),
      added: fc.dictionary(
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'tenant_uuid')),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 2 },
      ),
    })
    .map(({ replaced, removed, added }) => {
      const body: Record<string, unknown> = { ...base, ...replaced };
      for (const key of removed) delete body[key];
      for (const [key, value] of Object.entries(added))
        Object.defineProperty(body, key, { value, enumerable: true });
      return JSON.stringify(body);
    });
}

const nested = (depth: number, open: string, close: string, inner: string) =>
  open.repeat(depth) + inner + close.repeat(depth);

/** Bodies of every kind: valid ones changed, JSON of the wrong shape, malformed, deeply nested, huge, not UTF-8. */
function anyBody(base: Record<string, unknown> | undefined) {
  return fc.oneof(
    { weight: 4, arbitrary: mutatedBody(base ?? {}) },
    { weight: 1, arbitrary: fc.constant(base ? JSON.stringify(base) : undefined) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200, unit: 'grapheme' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"a":',
        '[1,2',
        'null',
        '"text"',
        '12',
        'true',
        '{"name":"a","name":1}',
        '{"__proto__":{"polluted":true}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        '\ufeff{}',
        '{"name":"\\ud800"}',
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 50, max: 200_000 }), fc.boolean())
        .map(([depth, arrays]) => (arrays ? nested(depth, '[', ']', '') : nested(depth, '{"a":', '}', '1'))),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.constant(JSON.stringify({ name: 'x'.repeat(HUGE) })) },
  );
}

const printableAscii = (maxLength: number) =>
  fc.string({
    maxLength,
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  });

const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'application/json, text/plain',
    'application/vnd.api+json',
    'text/plain',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/xml',
    'application/octet-stream',
    '',
    ';',
    '*/*',
  ),
  printableAscii(40),
);

describe('fuzzing every HTTP route of the api-gateway', () => {
  let platform: PlatformUnderTest;
  let validator: OpenApiResponseValidator;
  let routes: { template: string; methods: string[] }[];
  let token: string;
  let otherTenantToken: string;
  let powerlessToken: string;
  let realUuids: string[];
  let baseBodies: Map<string, Record<string, unknown>>;
  let api: ApiTestClient;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: FUZZED_SERVICES,
      env: {
        API_RATE_LIMIT_PER_SUBJECT: '1000000',
        TOKEN_RATE_LIMIT_PER_ADDRESS: '1000000',
        TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS: '1000000',
        TOKEN_FAILURE_LIMIT_PER_ACCOUNT: '1000000',
      },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    validator = await OpenApiResponseValidator.fetch(platform.apiUrl);
    const document = (await (await fetch(`${platform.apiUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    routes = Object.entries(document.paths).map(([template, operations]) => ({
      template,
      methods: Object.keys(operations).map((method) => method.toUpperCase()),
    }));

    const userToken = async (tenant: string, role: string, permissions: string) =>
      (await usersWithRoles(platform, api, tenant, { [role]: permissions }))[role];
    await platform.admin(['tenant:create', '--slug', 'acme']);
    await platform.admin(['tenant:create', '--slug', 'rival']);
    token = await userToken('acme', 'admin', '*');
    powerlessToken = await userToken('acme', 'nobody', 'asset:facility-types:list');
    otherTenantToken = await userToken('rival', 'admin', '*');

    const data = new AssetsTestData(api, token);
    const site = await data.site(2);
    const facilityType = await data.facilityType();
    realUuids = [
      site.location.uuid,
      site.controller.uuid,
      ...site.plugs.map((plug) => plug.uuid),
      ...site.sensors.map((sensor) => sensor.uuid),
      facilityType.uuid,
    ];
    baseBodies = new Map<string, Record<string, unknown>>([
      [
        'POST /api/v1/oauth/token',
        { username: 'admin@acme.test', password: USER_PASSWORD, tenant: 'acme', context: 'user' },
      ],
      ['POST /api/v1/assets/locations', fullLocationBody({ facility_types: [{ uuid: facilityType.uuid }] })],
      ['PATCH /api/v1/assets/locations/{uuid}', { name: 'Renamed', status: 'active', latitude: 1.5 }],
      ['POST /api/v1/assets/facility-types', { name: 'Garage' }],
      [
        'POST /api/v1/assets/controllers',
        {
          location_uuid: site.location.uuid,
          name: 'Wallbox',
          ocpp_identity: 'FUZZ-CP',
          ocpp_password: OCPP_PASSWORD,
          security_profile: 1,
        },
      ],
      ['PATCH /api/v1/assets/controllers/{uuid}', { name: 'Renamed', security_profile: 2 }],
      [
        'POST /api/v1/assets/plugs',
        {
          controller_uuid: site.controller.uuid,
          connector_id: 7,
          evse_id: 2,
          standard: 'iec_62196_t2',
          power_type: 'ac_3_phase',
          max_power_kw: 22,
        },
      ],
      ['PATCH /api/v1/assets/plugs/{uuid}', { max_power_kw: 11.5, name: 'Left' }],
      ['POST /api/v1/assets/sensors', { kind: 'temperature', name: 'T1', location_uuid: site.location.uuid }],
      ['PATCH /api/v1/assets/sensors/{uuid}', { name: 'T2' }],
      [
        'POST /api/v1/control/commands',
        {
          target_type: 'connector',
          target_uuid: site.plugs[0].uuid,
          type: 'change_availability',
          parameters: { availability: 'inoperative' },
          valid_for_seconds: 5,
        },
      ],
    ]);
  }, 180_000);

  afterAll(() => platform?.stop());

  const authorization = () =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(`Bearer ${token}`) },
      { weight: 1, arbitrary: fc.constant(`Bearer ${otherTenantToken}`) },
      { weight: 1, arbitrary: fc.constant(`Bearer ${powerlessToken}`) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'Bearer',
          'Bearer ',
          'bearer ' + token,
          `Bearer ${token.slice(0, -5)}AAAAA`,
          `Bearer ${token.split('.').slice(0, 2).join('.')}.`,
          `Bearer ${token} ${token}`,
          'Basic YWRtaW46YWRtaW4=',
          'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        ),
      },
      { weight: 1, arbitrary: printableAscii(200).map((value) => `Bearer ${value}`) },
    );

  const headers = () =>
    fc
      .record(
        {
          authorization: authorization(),
          'content-type': contentType,
          'x-request-id': printableAscii(200),
          accept: fc.constantFrom('*/*', 'text/html', 'application/xml', ''),
          'x-forwarded-for': fc.oneof(fc.ipV4(), fc.ipV6(), printableAscii(50)),
          'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x-unknown'),
          'idempotency-key': fc.oneof(fc.constantFrom('fuzz-1', 'fuzz-2', ''), printableAscii(300)),
        },
        { requiredKeys: ['authorization'] },
      )
      .map(
        (record) =>
          Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<
            string,
            string
          >,
      );

  /** A request to one of the documented routes, with everything about it fuzzed. */
  const routeRequest = () =>
    fc
      .constantFrom(...routes)
      .chain((route) =>
        fc.record({
          route: fc.constant(route),
          method: fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...route.methods) },
            fc.constantFrom(...METHODS),
          ),
          parameter: pathParameter(realUuids),
          suffix: fc.constantFrom('', '', '', '/', '//', '/extra', '/..', '%20'),
          query: queryString,
          headers: headers(),
        }),
      )
      .chain(({ route, method, parameter, suffix, query, headers }) =>
        anyBody(baseBodies.get(`${method} ${route.template}`)).map((body): FuzzRequest => ({
          method,
          path: route.template.replace(/\{[^}]+\}/g, parameter) + suffix + query,
          headers,
          body:
            ['GET', 'HEAD'].includes(method) && body !== undefined && body.length > 100 ? undefined : body,
        })),
      );

  /** Paths the document does not have: under the prefix, around it, traversals and encodings. */
  const strayRequest = () =>
    fc
      .record({
        method: fc.constantFrom(...METHODS),
        path: fc.oneof(
          fc.constantFrom(
            '/',
            '/api',
            '/api/v1',
            '/api/v1/',
            '/api/v2/assets/locations',
            '/API/V1/ASSETS/LOCATIONS',
            '/api/v1/assets',
            '/api/v1/assets/locations/../../oauth/token',
            '/api/v1/assets/%2e%2e/%2e%2e/oauth/token',
            '/api/v1/control',
            '/health/live',
            '/health/ready',
            '/docs',
            '/api/v1/openapi.json',
            '/%ZZ',
            '/api/v1/%00',
            '//api//v1//assets//locations',
          ),
          fc
            .array(fc.string({ maxLength: 20, unit: 'grapheme' }).map(encodeURIComponent), { maxLength: 6 })
            .map((segments) => `/api/v1/${segments.join('/')}`),
        ),
        query: queryString,
        headers: headers(),
        body: anyBody(undefined),
      })
      .map(({ method, path, query, headers, body }): FuzzRequest => ({
        method,
        path: path + query,
        headers,
        body: ['GET', 'HEAD'].includes(method) ? undefined : body,
      }));

  it(
    'answers fuzzed requests to every documented route without a 5xx, with spec error bodies, as documented',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof({ weight: 4, arbitrary: routeRequest() }, strayRequest()), {
            minLength: 1,
            maxLength: 4,
          }),
          async (requests) => {
            const responses = await Promise.all(requests.map((fuzz) => send(platform.apiUrl, fuzz)));
            responses.forEach((response, index) => checkResponse(validator, requests[index], response));
          },
        ),
        fuzzParameters(RUNS),
      );
      await expectServicesSurvived(platform, FUZZED_SERVICES);
    },
    fuzzTimeoutMs(RUNS, 250),
  );

  it(
    'survives requests that are not well-formed HTTP at all',
    async () => {
      const url = new URL(platform.apiUrl);
      const rawRequest = fc.oneof(
        fc.uint8Array({ maxLength: 500 }).map((bytes) => Buffer.from(bytes)),
        fc
          .tuple(printableAscii(20), printableAscii(100), printableAscii(300))
          .map(([method, path, header]) =>
            Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`),
          ),
        fc
          .tuple(
            fc.constantFrom('GET', 'POST'),
            fc.integer({ min: -5, max: 100 }),
            fc.string({ maxLength: 50 }),
          )
          .map(([method, length, body]) =>
            Buffer.from(
              `${method} /api/v1/assets/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
                `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${body}`,
            ),
          ),
        fc.constant(
          Buffer.from(
            `POST /api/v1/assets/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
              'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
          ),
        ),
      );
      await fc.assert(
        fc.asyncProperty(rawRequest, async (bytes) => {
          const answer = await new Promise<string>((resolve) => {
            const socket = tcpConnect(Number(url.port), url.hostname);
            let received = '';
            socket.on('data', (chunk) => (received += chunk.toString('latin1')));
            socket.on('error', () => resolve(received));
            socket.on('close', () => resolve(received));
            socket.setTimeout(2000, () => socket.destroy());
            socket.end(bytes);
          });
          const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
          if (status >= 500) throw new Error(`server error: ${answer.slice(0, 300)}`);
          const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
          if (status >= 400 && body !== '' && !isSpecErrorBody(JSON.parse(body))) {
            throw new Error(`not a spec error body: ${answer.slice(0, 300)}`);
          }
        }),
        fuzzParameters(RAW_RUNS),
      );
      await expectServicesSurvived(platform, FUZZED_SERVICES);
    },
    fuzzTimeoutMs(RAW_RUNS, 2500),
  );

  describe('what the fuzzing found, pinned', () => {
    it('validates a path parameter of any length (422 on uuid), not the router (414 with its own body)', async () => {
      const response = await api.call('GET', `/api/v1/assets/locations/${'a'.repeat(500)}`, { token });
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({ errorKey: 'invalid_uuid', parameter: 'uuid' });
    });

    it('answers a path that is not valid percent-encoding with 400 {error}', async () => {
      const response = await send(platform.apiUrl, {
        method: 'GET',
        path: '/api/v1/assets/locations/%ZZ',
        headers: { authorization: `Bearer ${token}` },
        body: undefined,
      });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.text)).toEqual({ error: 'the URL is not valid percent-encoding' });
    });

    it('answers a body over the limit with 413 and a spec error to every client still writing it (not EPIPE)', async () => {
      const huge: FuzzRequest = {
        method: 'PUT',
        path: '/api/v1/?',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(HUGE) }),
      };
      const responses = await Promise.all(Array.from({ length: 10 }, () => send(platform.apiUrl, huge)));
      for (const response of responses) {
        expect(response.status).toBe(413);
        expect(isSpecErrorBody(JSON.parse(response.text))).toBe(true);
      }
    });

    it('documents 415 on routes that take a body', async () => {
      const response = await api.call('POST', '/api/v1/assets/locations', {
        token,
        rawBody: 'name=x',
        headers: { 'content-type': 'text/csv' },
      });
      expect(response.status).toBe(415);
    });
  });
});
