import { connect, type NatsConnection } from '@nats-io/transport-node';
import { SubjectServerNats } from '@cpc/nats';
import { type NatsTestServer, startNatsTestServer } from './nats-test-server.js';

/** A request as Nest's NATS client sends it: a JSON packet with an id, answered as { id, response }. */
async function ask(client: NatsConnection, subject: string): Promise<unknown> {
  const reply = await client.request(subject, JSON.stringify({ id: 'r1', pattern: subject, data: {} }), {
    timeout: 10_000,
  });
  return reply.json<{ response?: unknown }>().response;
}

describe('SubjectServerNats at shutdown', () => {
  let nats: NatsTestServer;
  let client: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    client = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    await client?.close();
    await nats?.stop();
  });

  async function serverWith(subject: string, handler: () => Promise<unknown>, graceMs: number) {
    const server = new SubjectServerNats({ servers: [nats.url], queue: 'shutdown-test' }, graceMs);
    server.addHandler(subject, () => handler());
    await new Promise<void>((resolve, reject) => {
      void server.listen((error?: unknown) =>
        error ? reject(error instanceof Error ? error : new Error('listen failed')) : resolve(),
      );
    });
    // The subscriptions reach the server with the next flush; before it, a request finds no responders.
    await server.unwrap<NatsConnection>().flush();
    return server;
  }

  it('answers the requests it has taken before it disconnects, and takes no new ones', async () => {
    let finish: (value: string) => void = () => undefined;
    let taken: () => void = () => undefined;
    const inHand = new Promise<void>((resolve) => (taken = resolve));
    const server = await serverWith(
      'shutdown.slow.v1',
      () => {
        taken();
        return new Promise((resolve) => (finish = resolve));
      },
      60_000,
    );
    const answer = ask(client, 'shutdown.slow.v1');
    await inHand;
    const closed = server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    finish('done');
    await expect(answer).resolves.toBe('done');
    await closed;
    await expect(ask(client, 'shutdown.slow.v1')).rejects.toThrow(/no responders/i);
  });

  it('does not sit out its grace period when no request is in hand', async () => {
    // A grace of an hour: were it slept through, this test would run into Jest's timeout.
    const server = await serverWith('shutdown.idle.v1', () => Promise.resolve('ok'), 3_600_000);
    await expect(ask(client, 'shutdown.idle.v1')).resolves.toBe('ok');
    await server.close();
  });
});
