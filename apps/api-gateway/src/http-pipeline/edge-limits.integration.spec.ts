import { connect as netConnect } from 'node:net';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  ErrorCode,
  REQUEST_ID_HEADER,
  REQUEST_TIMEOUT_HEADER,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { type NatsTestServer, startNatsTestServer } from '@cpc/testing';
import {
  AuthServiceStandIn,
  type RunningApiGateway,
  signAccessToken,
  standInFor,
  startApiGatewayProcess,
  startApiGatewayReplica,
  testConnection,
  type TestSigningKey,
  testSigningKey,
} from '../testing/api-gateway-test-bed.js';

const LOCATION = '22222222-2222-4222-8222-222222222222';

/** What the server writes back to `request` on a fresh socket, until it closes the connection. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const statusAndBody = (answer: string) => ({
  status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]),
  body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown,
});

/** Nested JSON arrays `depth` deep around a string, as a field's value. */
const nested = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;

/**
 * Bodies, headers and request ids at the HTTP edge, over real sockets: every refusal in the spec's shape (`{error}`
 * or `{errors}`), never a 5xx. Real NATS; auth-service and assets-service played by stand-ins.
 */
describe('the HTTP edge: bodies, headers, request ids', () => {
  let nats: NatsTestServer;
  let connection: NatsConnection;
  let auth: AuthServiceStandIn;
  let key: TestSigningKey;
  let gateway: RunningApiGateway;
  /** The compiled gateway in a process of its own: the call stack a request has in production. */
  let compiled: RunningApiGateway;
  let token: string;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    connection = await testConnection(nats.url);
    auth = new AuthServiceStandIn(connection);
    key = testSigningKey();
    auth.keys = [key];
    await auth.start();
    standInFor<TenantScopedRequest<unknown>>(connection, AssetsSubjects.createLocation, () => ({
      uuid: LOCATION,
    }));
    await connection.flush();
    [gateway, compiled] = await Promise.all([
      startApiGatewayReplica(nats.url),
      startApiGatewayProcess(nats.url),
    ]);
    token = signAccessToken(key);
  });

  afterAll(async () => {
    await Promise.all([gateway?.close(), compiled?.close()]);
    auth?.stop();
    await connection?.close();
    await nats?.stop();
  });

  const post = (
    target: RunningApiGateway,
    path: string,
    body: string,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${target.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body,
    }).then(async (response) => ({ status: response.status, body: await response.json() }));

  it('answers an oversized body 413 and a malformed one 400, on a route and on the token endpoint, as {error}', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) });
    await expect(post(gateway, '/api/v1/assets/locations', big)).resolves.toEqual({
      status: 413,
      body: { error: expect.any(String) },
    });
    await expect(
      post(gateway, '/api/v1/oauth/token', `username=${'a'.repeat(1024 * 1024 + 1)}`, {
        'content-type': 'application/x-www-form-urlencoded',
      }),
    ).resolves.toEqual({ status: 413, body: { error: expect.any(String) } });
    await expect(post(gateway, '/api/v1/assets/locations', '{"name":')).resolves.toEqual({
      status: 400,
      body: { error: expect.any(String) },
    });
    await expect(
      post(gateway, '/api/v1/assets/locations', '{"name":"a","__proto__":{"x":1}}'),
    ).resolves.toEqual({
      status: 400,
      body: { error: expect.any(String) },
    });
  });

  it('answers a body sent compressed (Content-Encoding other than identity) 415, as {error}', async () => {
    const body = JSON.stringify({ name: 'a' });
    for (const encoding of ['gzip', 'br, gzip', 'x-unknown']) {
      await expect(
        post(gateway, '/api/v1/assets/locations', body, { 'content-encoding': encoding }),
      ).resolves.toEqual({ status: 415, body: { error: expect.any(String) } });
    }
    await expect(
      post(gateway, '/api/v1/assets/locations', body, { 'content-encoding': 'identity' }),
    ).resolves.toMatchObject({ status: 201 });
  });

  it('answers a header block too large 431, a malformed header and Content-Length beside chunked 400, as {error}', async () => {
    const tooLarge = await rawExchange(
      gateway.port,
      `GET /api/v1/assets/locations/${LOCATION} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(statusAndBody(tooLarge)).toEqual({ status: 431, body: { error: expect.any(String) } });
    const malformed = await rawExchange(gateway.port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n');
    expect(statusAndBody(malformed)).toEqual({ status: 400, body: { error: expect.any(String) } });
    const smuggled = await rawExchange(
      gateway.port,
      'POST /api/v1/oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(statusAndBody(smuggled)).toEqual({ status: 400, body: { error: expect.any(String) } });
  });

  // A small body (a few KB) of deeply nested arrays would overflow the call stack in the DTO transformation (a 500):
  // the pipes refuse a body nested deeper than MAX_BODY_DEPTH first, with the spec's error shapes.
  it('answers a deeply nested JSON body within the size limit with a 4xx, never a 5xx', async () => {
    const body = `{"name":${nested(5000)}}`;
    expect(body.length).toBeLessThan(16 * 1024);

    const route = await post(compiled, '/api/v1/assets/locations', body);
    const tokenEndpoint = await post(compiled, '/api/v1/oauth/token', `{"username":${nested(5000)}}`, {
      authorization: '',
    });

    for (const answer of [route, tokenEndpoint]) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it('gives every NATS hop of concurrent requests its own request id, and the deadline the gateway waits', async () => {
    const held: { message: Msg; id: string }[] = [];
    let allHeld!: () => void;
    const arrived = new Promise<void>((resolve) => (allHeld = resolve));
    const count = 30;
    const subscription = connection.subscribe(AssetsSubjects.getLocation, {
      callback: (_error, message) => {
        held.push({ message, id: message.json<{ id: string }>().id });
        if (held.length === count) allHeld();
      },
    });
    await connection.flush();
    const ids = Array.from({ length: count }, (_, index) => `race-${index}`);

    const answers = ids.map((id) =>
      fetch(`${gateway.url}/api/v1/assets/locations/${LOCATION}`, {
        headers: { authorization: `Bearer ${token}`, [REQUEST_ID_HEADER]: id },
      }),
    );
    await arrived;
    const hops = held.map(({ message }) => ({
      requestId: message.headers?.get(REQUEST_ID_HEADER),
      timeoutMs: message.headers?.get(REQUEST_TIMEOUT_HEADER),
      tenantUuid: message.json<{ data: TenantScopedRequest<unknown> }>().data.principal.tenantUuid,
    }));
    // Answered in reverse order of arrival, so replies and requests interleave.
    for (const { message, id } of [...held].reverse()) {
      message.respond(
        JSON.stringify({ id, err: { code: ErrorCode.NotFound, message: 'not found' }, isDisposed: true }),
      );
    }
    const responses = await Promise.all(answers);
    subscription.unsubscribe();

    expect(hops.map(({ requestId }) => requestId).sort()).toEqual([...ids].sort());
    expect(new Set(hops.map(({ timeoutMs }) => timeoutMs))).toEqual(new Set(['2000']));
    expect(responses.map((response) => [response.status, response.headers.get(REQUEST_ID_HEADER)])).toEqual(
      ids.map((id) => [404, id]),
    );
    // An id that does not match the pattern is replaced, not echoed.
    const replaced = await fetch(`${gateway.url}/api/v1/assets/locations/${LOCATION}`, {
      headers: { authorization: `Bearer ${token}`, [REQUEST_ID_HEADER]: 'a b\tc' },
    });
    expect(replaced.headers.get(REQUEST_ID_HEADER)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
