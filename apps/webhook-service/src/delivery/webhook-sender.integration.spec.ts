import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScriptedHttpServer } from '@cpc/testing';
import { TargetGuard } from './target-guard.js';
import { type SenderLimits, WebhookSender } from './webhook-sender.js';

const LIMITS: SenderLimits = {
  connectTimeoutMs: 2000,
  responseTimeoutMs: 5000,
  responseBodyLimitBytes: 4096,
  idleConnectionMs: 4000,
  maxIdleConnectionsPerReceiver: 20,
};

/** A resolver whose answers the test sets: host name → addresses. */
function fakeDns() {
  const answers = new Map<string, string[]>();
  const guard = new TargetGuard(['127.0.0.0/8'], (host) => {
    const addresses = answers.get(host);
    if (!addresses) return Promise.reject(new Error(`ENOTFOUND ${host}`));
    return Promise.resolve(addresses.map((address) => ({ address, family: 4 })));
  });
  return { answers, guard };
}

const senders: WebhookSender[] = [];
const servers: { close(): Promise<void> }[] = [];

function sender(guard: TargetGuard, limits: Partial<SenderLimits> = {}): WebhookSender {
  const started = new WebhookSender(guard, { ...LIMITS, ...limits });
  senders.push(started);
  return started;
}

async function scripted(...args: Parameters<typeof ScriptedHttpServer.start>): Promise<ScriptedHttpServer> {
  const server = await ScriptedHttpServer.start(...args);
  servers.push(server);
  return server;
}

function portOf(server: ScriptedHttpServer): string {
  return new URL(server.url).port;
}

/**
 * A scripted receiver named `receiver.test` (resolving to 127.0.0.1 until the test changes `answers`), a sender, and
 * the receiver's URL.
 */
async function namedReceiver(
  script: Parameters<typeof ScriptedHttpServer.start>[0] = () => ({ status: 204 }),
  limits: Partial<SenderLimits> = {},
) {
  const server = await scripted(script);
  const { answers, guard } = fakeDns();
  answers.set('receiver.test', ['127.0.0.1']);
  return {
    server,
    answers,
    webhooks: sender(guard, limits),
    url: `http://receiver.test:${portOf(server)}/hooks`,
  };
}

/** A plain HTTP server on loopback, for answers ScriptedHttpServer does not give; counts its connections. */
async function plainServer(handle: RequestListener): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer(handle);
  server.on('connection', () => (connections += 1));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push({
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  });
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

afterEach(async () => {
  for (const started of senders.splice(0)) started.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('WebhookSender connections', () => {
  it('sends several deliveries to a receiver over one kept-alive connection, with the Host of the URL', async () => {
    const { server, webhooks, url: hooks } = await namedReceiver();
    const url = `${hooks}?x=1`;
    for (let index = 0; index < 5; index += 1) {
      await expect(webhooks.send(url, { 'webhook-id': `msg_${index}` }, '{}')).resolves.toEqual({
        statusCode: 204,
        error: null,
      });
    }
    expect(server.requests).toHaveLength(5);
    expect(server.connections).toBe(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/hooks?x=1',
      headers: { host: `receiver.test:${portOf(server)}`, 'webhook-id': 'msg_0' },
    });

    // Requests at once take a connection each, and the next ones reuse them.
    const together = () => Promise.all([1, 2, 3].map(() => webhooks.send(url, {}, '{}')));
    await together();
    await together();
    expect(server.requests).toHaveLength(11);
    expect(server.connections).toBe(3);
  });

  it('refuses a host that now resolves to a forbidden address, with a connection to its old address open', async () => {
    const { server, answers, webhooks, url } = await namedReceiver();
    await webhooks.send(url, {}, '{}');

    answers.set('receiver.test', ['10.0.0.7']);
    const refused = await webhooks.send(url, {}, '{}');
    expect(refused).toEqual({ statusCode: null, error: expect.stringMatching(/^refused: .*private/) });
    // One allowed address beside a forbidden one is refused too.
    answers.set('receiver.test', ['127.0.0.1', '169.254.169.254']);
    expect((await webhooks.send(url, {}, '{}')).error).toMatch(/^refused: .*link-local/);
    expect(server.requests).toHaveLength(1);
    expect(server.connections).toBe(1);

    answers.set('receiver.test', ['127.0.0.1']);
    await expect(webhooks.send(url, {}, '{}')).resolves.toEqual({ statusCode: 204, error: null });
    expect(server.connections).toBe(1);
  });

  it('never takes a connection to the old address for a host that now resolves to another one', async () => {
    const { server, answers, webhooks, url } = await namedReceiver();
    await webhooks.send(url, {}, '{}');
    // Allowed, but nobody listens there: the request goes there, not over the open connection to 127.0.0.1.
    answers.set('receiver.test', ['127.0.0.2']);
    const elsewhere = await webhooks.send(url, {}, '{}');
    expect(elsewhere.statusCode).toBeNull();
    expect(elsewhere.error).not.toBeNull();
    expect(server.requests).toHaveLength(1);
  });

  it('closes a connection whose answer was longer than the read limit', async () => {
    const { server, webhooks, url } = await namedReceiver(
      (_, index) => (index === 0 ? { status: 500, body: 'x'.repeat(20_000) } : { status: 200 }),
      { responseBodyLimitBytes: 100 },
    );
    const failed = await webhooks.send(url, {}, '{}');
    expect(failed.statusCode).toBe(500);
    expect(failed.error).toBe(`HTTP 500: ${'x'.repeat(100)}`);
    await expect(webhooks.send(url, {}, '{}')).resolves.toEqual({ statusCode: 200, error: null });
    expect(server.connections).toBe(2);
  });

  it('sends again on a new connection when the receiver dropped a kept-alive one under the request', async () => {
    const ids: string[] = [];
    const server = await plainServer((request, response) => {
      ids.push(String(request.headers['webhook-id']));
      request.resume();
      request.on('end', () => {
        // The second request: the connection is dropped without an answer, as by a receiver closing it idle.
        if (ids.length === 2) request.socket.destroy();
        else response.writeHead(204).end();
      });
    });
    const { answers, guard } = fakeDns();
    answers.set('receiver.test', ['127.0.0.1']);
    const webhooks = sender(guard);
    const url = `http://receiver.test:${server.port}/hooks`;
    await webhooks.send(url, { 'webhook-id': 'msg_1' }, '{}');
    await expect(webhooks.send(url, { 'webhook-id': 'msg_2' }, '{}')).resolves.toEqual({
      statusCode: 204,
      error: null,
    });
    expect(ids).toEqual(['msg_1', 'msg_2', 'msg_2']);
    expect(server.connections()).toBe(2);
  });

  it('waits for an answer longer than the idle time of a connection, and reuses the connection after it', async () => {
    let requests = 0;
    const server = await plainServer((request, response) => {
      requests += 1;
      request.resume();
      // The first answer comes after the idle time has passed three times over.
      if (requests === 1) setTimeout(() => response.writeHead(200).end(), 300);
      else response.writeHead(200).end();
    });
    const { answers, guard } = fakeDns();
    answers.set('receiver.test', ['127.0.0.1']);
    const webhooks = sender(guard, { idleConnectionMs: 100 });
    const url = `http://receiver.test:${server.port}/hooks`;
    await expect(webhooks.send(url, {}, '{}')).resolves.toEqual({ statusCode: 200, error: null });
    await expect(webhooks.send(url, {}, '{}')).resolves.toEqual({ statusCode: 200, error: null });
    expect(server.connections()).toBe(1);
  });
});
