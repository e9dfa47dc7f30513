import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { natsAnswers, postgresAnswers } from './probes.js';
import { findFreePort } from './free-port.js';
import {
  findNatsServerBinary,
  isLoopbackUrl,
  natsMissingMessage,
  startEmbeddedPostgres,
  startLocalNats,
} from './local-infrastructure.js';

describe('isLoopbackUrl', () => {
  it.each([
    ['postgres://postgres@127.0.0.1:5432/cpc', true],
    ['postgres://postgres@localhost/cpc', true],
    ['nats://[::1]:4222', true],
    ['nats://127.0.0.1:4222,nats://10.0.0.2:4222', true],
    ['postgres://postgres@db.internal:5432/cpc', false],
    ['nats://10.0.0.2:4222', false],
  ])('%s → %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});

describe('nats-server lookup', () => {
  it('prefers NATS_SERVER_BIN, then the PATH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpc-path-'));
    try {
      writeFileSync(join(dir, 'nats-server'), '#!/bin/sh\n', { mode: 0o755 });
      expect(findNatsServerBinary({ NATS_SERVER_BIN: '/opt/nats/bin/nats-server', PATH: dir })).toBe(
        '/opt/nats/bin/nats-server',
      );
      expect(findNatsServerBinary({ PATH: `/nonexistent:${dir}` })).toBe(join(dir, 'nats-server'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says how to get one when there is none', () => {
    const message = natsMissingMessage('nats://127.0.0.1:4222');
    expect(message).toContain('No NATS server answers at nats://127.0.0.1:4222');
    expect(message).toContain('apt-get install nats-server');
    expect(message).toContain('docker compose up nats');
  });
});

describe('servers the launcher starts itself', () => {
  let dataRoot: string;
  beforeAll(() => {
    dataRoot = mkdtempSync(join(tmpdir(), 'cpc-local-'));
    // As root the embedded PostgreSQL runs as the user postgres, which must be able to reach its data directory.
    chmodSync(dataRoot, 0o755);
  });
  afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

  it('starts nats-server with JetStream and its store where asked, and stops it', async () => {
    const url = `nats://127.0.0.1:${await findFreePort()}`;
    const nats = await startLocalNats({ url, dataDir: join(dataRoot, 'nats') });
    try {
      expect(await natsAnswers(url)).toBe(true);
      const info = await fetchInfo(url);
      expect(info.jetstream).toBe(true);
    } finally {
      await nats.stop();
    }
    expect(await natsAnswers(url)).toBe(false);
  });

  it('gives nats-server a monitoring port on its host only when asked, which the bench reads its counts from', async () => {
    const url = `nats://127.0.0.1:${await findFreePort()}`;
    const monitorPort = await findFreePort();
    const nats = await startLocalNats({ url, dataDir: join(dataRoot, 'nats-monitored'), monitorPort });
    try {
      const varz = (await (await fetch(`http://127.0.0.1:${monitorPort}/varz`)).json()) as Record<
        string,
        unknown
      >;
      expect(varz).toMatchObject({ in_msgs: expect.any(Number), out_msgs: expect.any(Number) });
    } finally {
      await nats.stop();
    }
  });

  it('initialises an embedded PostgreSQL once, lets the user log in without a password, and stops it', async () => {
    const url = `postgres://postgres@127.0.0.1:${await findFreePort()}/cpc`;
    const dataDir = join(dataRoot, '.data', 'postgres');
    const firstRun: string[] = [];
    const first = await startEmbeddedPostgres({ url, dataDir, onLine: (line) => firstRun.push(line) });
    await first.stop();
    expect(await postgresAnswers(url)).toBe(false);
    expect(firstRun.join('\n')).toContain('Success. You can now start the database server');

    const secondRun: string[] = [];
    const second = await startEmbeddedPostgres({ url, dataDir, onLine: (line) => secondRun.push(line) });
    try {
      const maintenance = new URL(url);
      maintenance.pathname = '/postgres';
      const client = new pg.Client({ connectionString: maintenance.toString() });
      await client.connect();
      const result = await client.query<{ user: string }>('SELECT current_user AS user');
      await client.end();
      expect(result.rows).toEqual([{ user: 'postgres' }]);
      expect(secondRun.join('\n')).not.toContain('Success. You can now start the database server');
    } finally {
      await second.stop();
    }
  }, 60000);
});

/** The INFO line a NATS server greets with, parsed. */
async function fetchInfo(url: string): Promise<{ jetstream?: boolean }> {
  const parsed = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(parsed.port), parsed.hostname);
    socket.once('data', (chunk: Buffer) => {
      socket.destroy();
      resolve(
        JSON.parse(
          chunk
            .toString()
            .replace(/^INFO /, '')
            .trim(),
        ) as { jetstream?: boolean },
      );
    });
    socket.once('error', reject);
  });
}
