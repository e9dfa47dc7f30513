import { existsSync } from 'node:fs';
import { postgresLoginCheck } from '@cpc/platform-launcher';
import { testDatabaseServerUrl } from '@cpc/testing';
import { jest } from '@jest/globals';
import { prepareTestInfrastructure, type TestInfrastructure } from './test-infrastructure.js';

jest.setTimeout(90_000);

describe('prepareTestInfrastructure (Jest globalSetup of npm test)', () => {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  beforeEach(() => (lines.length = 0));

  it('stops the run at once, saying how to get nats-server, when there is none', async () => {
    await expect(
      prepareTestInfrastructure({ NATS_SERVER_BIN: '/nonexistent/nats-server', PATH: '/nonexistent' }, log),
    ).rejects.toThrow(
      'npm test needs nats-server (the tests start their own, on free ports): NATS_SERVER_BIN names ' +
        '/nonexistent/nats-server, which does not exist. npm cannot install it; get one of:\n' +
        '  sudo apt-get install nats-server     (Debian/Ubuntu)\n',
    );
  });

  it('starts nothing when the PostgreSQL of TEST_DATABASE_URL answers', async () => {
    const infrastructure = await prepareTestInfrastructure(
      { ...process.env, TEST_DATABASE_URL: testDatabaseServerUrl() },
      log,
    );
    expect([infrastructure.env, lines]).toEqual([{}, []]);
  });

  it('does not stand in for a server on another machine that does not answer', async () => {
    // 192.0.2.0/24 is reserved for documentation: nothing answers there.
    await expect(
      prepareTestInfrastructure(
        { ...process.env, TEST_DATABASE_URL: 'postgres://postgres@192.0.2.1:5432/postgres' },
        log,
      ),
    ).rejects.toThrow('it is not on this machine, so no embedded one is started in its place');
  });

  it('starts an embedded PostgreSQL on a free port when none answers on this machine, and removes it on stop', async () => {
    let infrastructure: TestInfrastructure | undefined;
    try {
      infrastructure = await prepareTestInfrastructure(
        { ...process.env, TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres' },
        log,
      );
      const url = infrastructure.env.TEST_DATABASE_URL;
      expect(url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      expect(await postgresLoginCheck(url)()).toEqual({ ready: true, detail: 'accepts connections' });
      expect(lines).toHaveLength(1);
      const [, workDir] = /\(in (.+)\)$/.exec(lines[0])!;
      expect(lines[0]).toContain(
        `no PostgreSQL answers at postgres://postgres@127.0.0.1:1/postgres: the tests use an embedded one at ${url}`,
      );
      expect(existsSync(workDir)).toBe(true);
      await infrastructure.stop();
      expect((await postgresLoginCheck(url)()).ready).toBe(false);
      expect(existsSync(workDir)).toBe(false);
    } finally {
      await infrastructure?.stop();
    }
  });
});
