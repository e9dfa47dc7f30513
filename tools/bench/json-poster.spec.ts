import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonPoster } from './json-poster.js';

describe('JsonPoster', () => {
  let server: Server;
  let poster: JsonPoster;
  const seen: { body: string; headers: IncomingMessage['headers']; port: number | undefined }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        seen.push({ body, headers: request.headers, port: request.socket.remotePort });
        if (request.url === '/text') {
          response.writeHead(503).end('busy');
          return;
        }
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    poster = new JsonPoster(`http://127.0.0.1:${port}`, { authorization: 'Bearer t' });
  });

  afterAll(async () => {
    poster.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('posts JSON with the given headers and hands back the status and the parsed body', async () => {
    expect(await poster.post('/json', { a: 1 })).toEqual({ status: 201, body: { echo: '{"a":1}' } });
    expect(seen[0].headers).toMatchObject({ authorization: 'Bearer t', 'content-type': 'application/json' });
  });

  it('hands back a body that is not JSON as text, and reuses its connection', async () => {
    expect(await poster.post('/text', {})).toEqual({ status: 503, body: 'busy' });
    expect(seen.at(-1)?.port).toBe(seen[0].port);
  });
});
