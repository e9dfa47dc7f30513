import { createServer, type Server } from 'node:net';
import { natsAnswers, postgresAnswers } from './probes.js';

const postgresServerUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function tcpServer(greeting: string | undefined): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    if (greeting !== undefined) socket.write(greeting);
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** A port nothing listens on: one that was just closed. */
async function closedPort(): Promise<number> {
  const { server, port } = await tcpServer(undefined);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('postgresAnswers', () => {
  it('is true for the PostgreSQL server, even for a database it does not have', async () => {
    expect(await postgresAnswers(postgresServerUrl)).toBe(true);
    const missing = new URL(postgresServerUrl);
    missing.pathname = '/no_such_database_here';
    missing.username = 'nobody';
    expect(await postgresAnswers(missing.toString())).toBe(true);
  });

  it('is false where nothing listens, or something that is not PostgreSQL', async () => {
    expect(await postgresAnswers(`postgres://postgres@127.0.0.1:${await closedPort()}/cpc`)).toBe(false);
    const { server, port } = await tcpServer('HTTP/1.1 400 Bad Request\r\n\r\n');
    try {
      expect(await postgresAnswers(`postgres://postgres@127.0.0.1:${port}/cpc`, 500)).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe('natsAnswers', () => {
  it('is true where the server greets with INFO, for any URL of a list', async () => {
    const { server, port } = await tcpServer('INFO {"server_id":"x"}\r\n');
    try {
      expect(await natsAnswers(`nats://127.0.0.1:${port}`)).toBe(true);
      expect(await natsAnswers(`nats://127.0.0.1:${await closedPort()},nats://127.0.0.1:${port}`)).toBe(true);
    } finally {
      server.close();
    }
  });

  it('is false where nothing listens, or something that stays silent', async () => {
    expect(await natsAnswers(`nats://127.0.0.1:${await closedPort()}`)).toBe(false);
    const { server, port } = await tcpServer(undefined);
    try {
      expect(await natsAnswers(`nats://127.0.0.1:${port}`, 300)).toBe(false);
    } finally {
      server.close();
    }
  });
});
