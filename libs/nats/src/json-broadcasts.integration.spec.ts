import { connect, type NatsConnection } from '@nats-io/transport-node';
import { listenForJsonBroadcasts } from './json-broadcasts.js';
import { type PrivateNatsServer, startNatsServer } from './testing/private-nats-server.js';

describe('listenForJsonBroadcasts (real nats-server)', () => {
  let nats: PrivateNatsServer;
  let listener: NatsConnection;
  let publisher: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsServer();
    listener = await connect({ servers: nats.url });
    publisher = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    await listener?.close();
    await publisher?.close();
    await nats?.stop();
  });

  it('hands over each JSON message and skips, with a warning, one that does not parse or that is refused', async () => {
    const heard: { n: number }[] = [];
    const warnings: string[] = [];
    listenForJsonBroadcasts<{ n: number }>(
      listener,
      'test.broadcast',
      'test notice',
      { warn: (m) => warnings.push(m) },
      (notice) => {
        if (notice.n < 0) throw new Error('negative');
        heard.push(notice);
      },
    );
    await listener.flush();

    publisher.publish('test.broadcast', JSON.stringify({ n: 1 }));
    publisher.publish('test.broadcast', 'not json');
    publisher.publish('test.broadcast', JSON.stringify({ n: -1 }));
    publisher.publish('test.broadcast', JSON.stringify({ n: 2 }));
    await publisher.flush();
    await listener.flush();

    expect(heard).toEqual([{ n: 1 }, { n: 2 }]);
    expect(warnings).toHaveLength(2);
    expect(warnings.every((warning) => warning.startsWith('ignoring a malformed test notice: '))).toBe(true);
  });
});
