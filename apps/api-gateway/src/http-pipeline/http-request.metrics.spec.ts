import Fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { HttpRequestMetrics, UNMATCHED_ROUTE } from './http-request.metrics.js';

describe('HttpRequestMetrics', () => {
  let registry: Registry;
  let metrics: HttpRequestMetrics;
  let server: FastifyInstance;
  let base: string;
  // A real listener: light-my-request's inject cannot load under Jest's ESM mode.
  const get = (path: string) => fetch(`${base}${path}`);

  beforeAll(async () => {
    registry = new Registry();
    metrics = new HttpRequestMetrics(registry);
    server = Fastify();
    metrics.attachTo(server);
    server.get('/api/v1/assets/locations/:uuid', async (request, reply) =>
      (request.params as { uuid: string }).uuid === 'missing' ? reply.code(404).send({}) : { ok: true },
    );
    base = await server.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  const count = async (labels: Record<'method' | 'route' | 'status_code', string>): Promise<number> => {
    const { values } = await metrics.duration.get();
    const found = values.find(
      (value) =>
        value.metricName === 'http_request_duration_seconds_count' &&
        (Object.keys(labels) as (keyof typeof labels)[]).every((key) => value.labels[key] === labels[key]),
    );
    return found?.value ?? 0;
  };

  it('labels requests by route template and status, never by raw URL', async () => {
    await get('/api/v1/assets/locations/a1');
    await get('/api/v1/assets/locations/b2?x=1');
    await get('/api/v1/assets/locations/missing');

    const route = '/api/v1/assets/locations/:uuid';
    expect(await count({ method: 'GET', route, status_code: '200' })).toBe(2);
    expect(await count({ method: 'GET', route, status_code: '404' })).toBe(1);
    expect(await registry.metrics()).not.toContain('/api/v1/assets/locations/a1');
  });

  it('puts every request no route matched under one label', async () => {
    await get('/wp-admin/setup.php');
    await get('/.env');

    expect(await count({ method: 'GET', route: UNMATCHED_ROUTE, status_code: '404' })).toBe(2);
    expect(await registry.metrics()).not.toContain('wp-admin');
  });
});
