import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { type NatsTestServer, startNatsTestServer } from '@cpc/testing';
import { JetStreamEventBus } from './jetstream-event-bus.js';

describe('JetStreamEventBus', () => {
  let nats: NatsTestServer;

  beforeAll(async () => {
    nats = await startNatsTestServer();
  });

  afterAll(async () => {
    await nats.stop();
  });

  it('delivers events to a durable consumer, and ends it quietly when the connection drains at shutdown', async () => {
    const connection = await connect({ servers: nats.url });
    const bus = new JetStreamEventBus(connection);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const received: string[] = [];
      let handlerBusy: (() => void) | undefined;
      await bus.consume(
        { durableName: 'bus-spec', filterSubject: 'events.bus-spec.>' },
        (_subject, event) => {
          received.push(event.eventId);
          // The second event is still being handled while the connection drains, as on SIGTERM.
          return received.length < 2
            ? Promise.resolve()
            : new Promise<void>((resolve) => (handlerBusy = resolve));
        },
      );
      const first = {
        eventId: randomUUID(),
        occurredAt: new Date().toISOString(),
        tenantUuid: randomUUID(),
        data: {},
      };
      await bus.publish('events.bus-spec.happened.v1', first);
      await bus.publish('events.bus-spec.happened.v1', { ...first, eventId: randomUUID() });
      while (!handlerBusy) await new Promise((resolve) => setTimeout(resolve, 20));

      const drained = connection.drain();
      handlerBusy();
      await bus.onApplicationShutdown();
      await drained;
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(received[0]).toBe(first.eventId);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      if (!connection.isClosed()) await connection.close();
    }
  });
});
