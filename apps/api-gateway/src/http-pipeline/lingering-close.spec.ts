import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import Fastify, { type FastifyError } from 'fastify';
import { answerClientError } from './client-error-handler.js';
import { LINGER_BOUNDS, type LingerBounds, lingerOnEarlyClose } from './lingering-close.js';

const BODY_LIMIT = 1024 * 1024;
const HUGE = 4 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** A real Fastify server wired as the api-gateway's: body limit, `{error}` answers, Node parser errors, lingering close. */
async function startServer(bounds: LingerBounds = LINGER_BOUNDS) {
  const server = Fastify({ bodyLimit: BODY_LIMIT, clientErrorHandler: answerClientError });
  server.setErrorHandler((error: FastifyError, _request, reply) =>
    reply.code(error.statusCode ?? 500).send({ error: error.message }),
  );
  lingerOnEarlyClose(server.server, bounds);
  const handled: string[] = [];
  server.put('/api/v1/', (_request, reply) => reply.send({ stored: true }));
  server.get('/next', (_request, reply) => {
    handled.push('GET /next');
    return reply.send({});
  });
  const sockets: Socket[] = [];
  server.server.on('connection', (socket: Socket) => sockets.push(socket));
  await server.listen({ port: 0, host: '127.0.0.1' });
  const port = (server.server.address() as { port: number }).port;
  /** Resolves when every socket the server accepted is closed, with how long that took. */
  const allClosed = async () => {
    const started = Date.now();
    await Promise.all(sockets.filter((socket) => !socket.closed).map((socket) => once(socket, 'close')));
    return Date.now() - started;
  };
  return { server, port, handled, allClosed };
}

interface Upload {
  /** What the Content-Length header says. */
  declared: number;
  /** How much of it the client writes. */
  sent: number;
  /** Whether the client then half-closes (a client that never does relies on the server's bounds). */
  finish: boolean;
  /** Pause between chunks, for a client that trickles. */
  pauseMs?: number;
  /** Bytes written after the body, as a pipelined next request. */
  trailer?: string;
}

interface RawClient {
  socket: Socket;
  answer: string;
  error?: Error;
  written: number;
}

/**
 * A raw TCP client that keeps writing its body after the server answers and half-closes, as uploading clients do.
 * Resolves once it has written (and half-closed, then seen the socket close, if it finishes), or once the server cut it off.
 */
async function upload(port: number, plan: Upload): Promise<RawClient> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const client: RawClient = { socket, answer: '', written: 0 };
  socket.on('data', (chunk: Buffer) => (client.answer += chunk.toString('latin1')));
  socket.on('error', (error: Error) => (client.error = error));
  // Not events.once: an error is an outcome here (the server may cut a client off), not a rejection.
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await once(socket, 'connect');
  socket.write(
    `PUT /api/v1/? HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${plan.declared}\r\n\r\n`,
  );
  while (client.written < plan.sent && !socket.destroyed) {
    const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, plan.sent - client.written));
    client.written += chunk.length;
    if (!socket.write(chunk))
      await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
    await new Promise((resolve) => setTimeout(resolve, plan.pauseMs ?? 0));
  }
  if (socket.destroyed) return client;
  if (plan.trailer !== undefined) socket.write(plan.trailer);
  if (plan.finish) {
    socket.end();
    await closed;
  }
  return client;
}

/** The 413 exactly as framed: status, a body of its Content-Length, `{error}`, and nothing after it. */
function expectComplete413(answer: string): void {
  const headEnd = answer.indexOf('\r\n\r\n');
  const head = answer.slice(0, headEnd);
  const body = answer.slice(headEnd + 4);
  expect(head).toMatch(/^HTTP\/1\.1 413 /);
  expect(head.toLowerCase()).toContain('connection: close');
  expect(Buffer.byteLength(body, 'latin1')).toBe(Number(/content-length: (\d+)/i.exec(head)?.[1]));
  expect(JSON.parse(body)).toEqual({ error: 'Request body is too large' });
}

describe('lingerOnEarlyClose', () => {
  it('delivers the 413 to a client that writes its whole 4 MiB body, every time, and then the socket closes', async () => {
    const { server, port, allClosed } = await startServer();
    try {
      for (let attempt = 0; attempt < 30; attempt += 1) {
        const { answer, error } = await upload(port, { declared: HUGE, sent: HUGE, finish: true });
        expect({ attempt, error }).toEqual({ attempt, error: undefined });
        expectComplete413(answer);
        expect(await allClosed()).toBeLessThan(1_000);
      }
    } finally {
      await server.close();
    }
  }, 60_000);

  it('drops what follows the refused body instead of parsing it as a next request', async () => {
    const { server, port, handled, allClosed } = await startServer();
    try {
      const { answer, error } = await upload(port, {
        ...{ declared: HUGE, sent: HUGE, finish: true },
        trailer: 'GET /next HTTP/1.1\r\nHost: x\r\n\r\n',
      });
      expect(error).toBeUndefined();
      expectComplete413(answer);
      await allClosed();
      expect(handled).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('closes at once when the refused request was complete (nothing left to drain)', async () => {
    const { server, port, allClosed } = await startServer();
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    try {
      await once(socket, 'connect');
      socket.write(
        'PUT /api/v1/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{x}',
      );
      const [answer] = (await once(socket, 'data')) as [Buffer];
      expect(answer.toString()).toMatch(/^HTTP\/1\.1 400 /);
      // The client neither finishes nor closes: the server does, long before the idle bound.
      expect(await allClosed()).toBeLessThan(LINGER_BOUNDS.idleMs / 2);
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  describe('bounds for a client that never finishes', () => {
    it('closes after the idle bound when the client stops sending', async () => {
      const { server, port, allClosed } = await startServer({ idleMs: 300, totalMs: 10_000, maxBytes: HUGE });
      const client = await upload(port, { declared: HUGE, sent: 256 * 1024, finish: false });
      try {
        const lingered = await allClosed();
        expect(lingered).toBeGreaterThanOrEqual(200);
        expect(lingered).toBeLessThan(1_000);
        expectComplete413(client.answer);
      } finally {
        client.socket.destroy();
        await server.close();
      }
    });

    it('closes after the total bound when the client trickles', async () => {
      const { server, port, allClosed } = await startServer({ idleMs: 300, totalMs: 800, maxBytes: HUGE });
      const started = Date.now();
      const client = await upload(port, { declared: HUGE, sent: HUGE, finish: false, pauseMs: 50 });
      try {
        await allClosed();
        const lingered = Date.now() - started;
        expect(lingered).toBeGreaterThanOrEqual(700);
        expect(lingered).toBeLessThan(2_000);
        expect(client.written).toBeLessThan(HUGE);
        expectComplete413(client.answer);
      } finally {
        client.socket.destroy();
        await server.close();
      }
    });

    it('closes after the byte bound when the client streams without end', async () => {
      const { server, port, allClosed } = await startServer({
        idleMs: 10_000,
        totalMs: 10_000,
        maxBytes: BODY_LIMIT,
      });
      const started = Date.now();
      const client = await upload(port, { declared: 64 * HUGE, sent: 64 * HUGE, finish: false });
      try {
        await allClosed();
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(client.written).toBeLessThan(64 * HUGE);
        expectComplete413(client.answer);
      } finally {
        client.socket.destroy();
        await server.close();
      }
    });
  });
});
