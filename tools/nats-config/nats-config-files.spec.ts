import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { parse } from 'yaml';
import { NATS_SERVICE_USERS, natsUserPermissions } from '@cpc/contracts';
import {
  findFreePort,
  findNatsServerBinary,
  generateNatsPasswords,
  ManagedProcess,
  natsAnswers,
  natsServerPasswordEnvironment,
  probeReadyCheck,
  waitForReady,
} from '@cpc/platform-launcher';
import { natsConfigFiles } from './nats-config-files.js';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

describe('the NATS deployment files generated from NATS_USERS', () => {
  it.each(Object.entries(natsConfigFiles()))('%s is up to date (npm run nats:config)', (path, content) => {
    expect(readFileSync(join(rootDir, path), 'utf8')).toBe(content);
  });

  it('gives the Helm chart every service with its permissions and its password from the Secret cpc-nats', () => {
    const values = parse(natsConfigFiles()['deploy/k8s/nats/values-authorization.yaml']) as {
      config: {
        merge: { authorization: { users: { user: string; password: string; permissions: unknown }[] } };
      };
      container: { env: Record<string, { valueFrom: { secretKeyRef: { name: string; key: string } } }> };
    };
    const users = values.config.merge.authorization.users;
    expect(users.map((entry) => entry.user)).toEqual([...NATS_SERVICE_USERS]);
    for (const entry of users) {
      const variable = /^<< \$(NATS_PASSWORD_[A-Z_]+) >>$/.exec(entry.password)![1];
      expect(values.container.env[variable].valueFrom.secretKeyRef).toEqual({
        name: 'cpc-nats',
        key: variable,
      });
      expect(entry.permissions).toMatchObject({
        publish: { allow: natsUserPermissions(entry.user as never).publish.allow },
      });
    }
  });
});

describe("docker-compose.yml's NATS configuration on nats-server 2.9", () => {
  it('starts with deploy/nats (authorization included), and lets each service in with its own password only', async () => {
    const passwords = generateNatsPasswords();
    const port = await findFreePort();
    const monitorPort = await findFreePort();
    // The configuration as compose mounts it, with a store of its own instead of the container's /data.
    const configDir = mkdtempSync(join(tmpdir(), 'cpc-compose-nats-'));
    const composeConfig = readFileSync(join(rootDir, 'deploy/nats/nats-server.conf'), 'utf8');
    writeFileSync(
      join(configDir, 'nats-server.conf'),
      composeConfig.replace('"/data"', JSON.stringify(configDir)),
    );
    copyFileSync(join(rootDir, 'deploy/nats/authorization.conf'), join(configDir, 'authorization.conf'));
    const server = new ManagedProcess({
      name: 'nats-server',
      command: findNatsServerBinary() ?? 'nats-server',
      // On free ports: other tests run beside this one.
      args: [
        '-c',
        join(configDir, 'nats-server.conf'),
        '-a',
        '127.0.0.1',
        '-p',
        String(port),
        '-m',
        String(monitorPort),
      ],
      env: { ...process.env, ...natsServerPasswordEnvironment(passwords) },
    });
    server.start();
    try {
      await waitForReady(
        server,
        probeReadyCheck(() => natsAnswers(`nats://127.0.0.1:${port}`), 'NATS'),
        {
          timeoutMs: 15000,
          target: 'nats-server',
        },
      );
      for (const user of NATS_SERVICE_USERS) {
        const connection = await connect({
          servers: `nats://127.0.0.1:${port}`,
          user,
          pass: passwords[user],
        });
        await connection.close();
      }
      await expect(
        connect({
          servers: `nats://127.0.0.1:${port}`,
          user: 'bench',
          pass: passwords.bench,
          reconnect: false,
        }),
      ).rejects.toThrow(/authorization/i);
    } finally {
      await server.stop();
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});
