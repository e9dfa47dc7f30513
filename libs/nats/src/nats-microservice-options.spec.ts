import { ServerNats } from '@nestjs/microservices';
import { natsMicroserviceOptions, SubjectServerNats } from './nats-microservice-options.js';

/** The handler lookup of the faster server must find exactly the route Nest's own finds. */
describe('SubjectServerNats', () => {
  const routeOf = (server: ServerNats, pattern: string) =>
    (server as unknown as { getRouteFromPattern(pattern: string): string }).getRouteFromPattern(pattern);

  it('finds the same route as ServerNats for subjects and for object patterns', () => {
    const nest = new ServerNats({ servers: ['nats://127.0.0.1:1'] });
    const fast = new SubjectServerNats({ servers: ['nats://127.0.0.1:1'] });
    for (const pattern of ['assets.location.get.v1', 'a', '{"cmd":"sum","role":"math"}', '{not json']) {
      expect(routeOf(fast, pattern)).toBe(routeOf(nest, pattern));
    }
  });
});

describe('natsMicroserviceOptions', () => {
  it('connects without a stack trace built for every request (noAsyncTraces)', () => {
    const { strategy } = natsMicroserviceOptions(
      { natsUrl: 'nats://127.0.0.1:1', natsCredentials: undefined },
      'some-service',
    );
    const options = (strategy as unknown as { options: { noAsyncTraces?: boolean; queue?: string } }).options;
    expect(options).toMatchObject({ noAsyncTraces: true, queue: 'some-service' });
  });

  it('reconnects forever, every 500 ms (after a NATS restart the service answers again at once)', () => {
    const { strategy } = natsMicroserviceOptions(
      { natsUrl: 'nats://127.0.0.1:1', natsCredentials: undefined },
      'some-service',
    );
    const options = (strategy as unknown as { options: Record<string, unknown> }).options;
    expect(options).toMatchObject({ maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  });
});
