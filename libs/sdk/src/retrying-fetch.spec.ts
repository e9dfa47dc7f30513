import { ScriptedHttpServer } from '@cpc/testing';
import { retryAfterMs, retryingFetch } from './retrying-fetch.js';

describe('retryingFetch', () => {
  let server: ScriptedHttpServer;
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    return Promise.resolve();
  };

  beforeEach(() => (waits.length = 0));
  afterEach(() => server.close());

  it('waits what Retry-After asks after a 429 and sends the same request again', async () => {
    server = await ScriptedHttpServer.start((_, index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '2' }, body: { error: 'slow down' } }
        : { status: 201 },
    );
    const send = retryingFetch((request) => fetch(request), {}, sleep);
    const response = await send(new Request(`${server.url}/things`, { method: 'POST', body: '{"a":1}' }));
    expect([response.status, waits, server.requests.map((request) => request.body)]).toEqual([
      201,
      [2000],
      ['{"a":1}', '{"a":1}'],
    ]);
  });

  it('backs off exponentially without Retry-After, within the cap, and gives up after maxRetries', async () => {
    server = await ScriptedHttpServer.start(() => ({ status: 429 }));
    const send = retryingFetch(
      (request) => fetch(request),
      { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 250 },
      sleep,
    );
    const response = await send(new Request(`${server.url}/things`));
    expect(response.status).toBe(429);
    expect(server.requests).toHaveLength(4);
    expect(waits).toHaveLength(3);
    waits.forEach((wait, attempt) => {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(Math.min(250, 100 * 2 ** attempt));
    });
  });

  it('retries a 503 only when it says when to come back', async () => {
    server = await ScriptedHttpServer.start((_, index) =>
      index === 0 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 503 },
    );
    const response = await retryingFetch((request) => fetch(request), {}, sleep)(new Request(server.url));
    expect([response.status, server.requests.length, waits]).toEqual([503, 2, [1000]]);
  });

  it('never retries other answers', async () => {
    server = await ScriptedHttpServer.start(() => ({ status: 422, body: { errors: [] } }));
    const response = await retryingFetch((request) => fetch(request), {}, sleep)(new Request(server.url));
    expect([response.status, server.requests.length]).toEqual([422, 1]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 26 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Thu, 26 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect([retryAfterMs(null), retryAfterMs(''), retryAfterMs('soon')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
