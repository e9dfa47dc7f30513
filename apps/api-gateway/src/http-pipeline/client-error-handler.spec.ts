import { request } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError } from './client-error-handler.js';

/** Requests Node's parser refuses get the spec's `{error}` body (found by the HTTP fuzz tests). */
describe('answerClientError', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('{}'));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const send = (method: string, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers a header block over the limit with 431 {error}', async () => {
    const response = await send('GET', `/?q=${'x'.repeat(20_000)}`);
    expect(response).toEqual({ status: 431, body: '{"error":"request line and headers too large"}' });
  });

  it('answers with the security headers of every API answer', async () => {
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: `/?q=${'x'.repeat(20_000)}`, agent: false },
        (res) => {
          res.resume();
          resolve(res.headers);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  });

  it('answers HEAD without a body', async () => {
    const response = await send('HEAD', `/?q=${'x'.repeat(20_000)}`);
    expect(response).toEqual({ status: 431, body: '' });
  });

  it('answers a method the parser does not know with 400 {error}', async () => {
    const response = await send('FOO', '/');
    expect(response).toEqual({ status: 400, body: '{"error":"malformed HTTP request"}' });
  });
});
