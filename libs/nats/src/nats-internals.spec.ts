import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RequestOne } from '@nats-io/nats-core/internal';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { settleAnsweredRequestsQuietly } from './answered-requests.js';
import { startNatsServer } from './testing/private-nats-server.js';
import { coalesceWritesPerTick } from './tick-coalesced-writes.js';

const PINNED_VERSION = '3.4.0';
/** nats-core holds the patched internals; the others bring their own dependency on it, pinned exactly by each. */
const NATS_PACKAGES = ['@nats-io/nats-core', '@nats-io/transport-node', '@nats-io/jetstream', '@nats-io/kv'];
const workspace = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(join(workspace, 'package.json'));

function installedVersion(name: string): string {
  return (
    JSON.parse(readFileSync(join(workspace, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
}

function broken(what: string, reliedOnBy: string): Error {
  return new Error(
    `nats.js ${installedVersion('@nats-io/nats-core')}: ${what}; ${reliedOnBy} relies on it. ` +
      'See docs/patched-libraries.md before upgrading.',
  );
}

interface RequestOneInternals {
  timer?: { cancel?: unknown };
  deferred?: { resolve?: unknown };
  mux?: { cancel?: unknown };
  resolver: (this: RequestOneInternals, error: unknown, message: unknown) => void;
}

/**
 * The nats.js internals libs/nats patches (docs/patched-libraries.md), checked on real connections to a real
 * nats-server: a version of nats.js that moves them fails here, not with a service that silently stops coalescing.
 */
describe(`nats.js internals libs/nats relies on (pinned ${PINNED_VERSION})`, () => {
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let connection: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsServer();
    settleAnsweredRequestsQuietly();
    connection = await connect({ servers: nats.url, noAsyncTraces: true });
  });

  afterAll(async () => {
    await connection?.close();
    await nats?.stop();
  });

  it.each(NATS_PACKAGES)(`%s is the version the patches were checked against (${PINNED_VERSION})`, (name) => {
    const installed = installedVersion(name);
    if (installed !== PINNED_VERSION) {
      throw new Error(
        `${name} ${installed} is installed, but libs/nats patches the internals of nats.js ${PINNED_VERSION}: go ` +
          'through docs/patched-libraries.md, then update the pin there, in package.json and here.',
      );
    }
  });

  it('one copy of @nats-io/nats-core serves every nats.js package and Nest, so the patched prototype is theirs', () => {
    const ours = require.resolve('@nats-io/nats-core');
    for (const dependent of [
      '@nats-io/transport-node',
      '@nats-io/jetstream',
      '@nats-io/kv',
      '@nestjs/microservices',
    ]) {
      const theirs = createRequire(join(workspace, 'node_modules', dependent, 'package.json')).resolve(
        '@nats-io/nats-core',
      );
      if (theirs !== ours) {
        throw broken(
          `${dependent} uses its own @nats-io/nats-core (${theirs})`,
          'settleAnsweredRequestsQuietly',
        );
      }
    }
  });

  it('answered requests and JetStream publishes of a real connection go through RequestOne.prototype.resolver', async () => {
    const prototype = RequestOne.prototype as unknown as RequestOneInternals;
    const patched = prototype.resolver;
    const seen: RequestOneInternals[] = [];
    let requests = 0;
    let publishes = 0;
    prototype.resolver = function (error, message) {
      seen.push(this);
      patched.call(this, error, message);
    };
    try {
      const responder = connection.subscribe('internals.echo', {
        callback: (_error, message) => {
          message.respond();
        },
      });
      await connection.request('internals.echo', '', { timeout: 5_000 });
      requests = seen.length;
      const manager = await jetstreamManager(connection);
      await manager.streams.add({ name: 'INTERNALS', subjects: ['internals.event'] });
      const beforePublish = seen.length;
      await jetstream(connection).publish('internals.event', '');
      publishes = seen.length - beforePublish;
      responder.unsubscribe();
    } finally {
      prototype.resolver = patched;
    }
    if (requests !== 1 || publishes !== 1) {
      throw broken(
        `an answered request reached RequestOne.prototype.resolver ${requests} times, a JetStream publish ${publishes}`,
        'settleAnsweredRequestsQuietly',
      );
    }
    for (const request of seen) {
      if (typeof request.timer?.cancel !== 'function')
        throw broken('RequestOne.timer has no cancel()', 'settleAnsweredRequestsQuietly');
      if (typeof request.deferred?.resolve !== 'function') {
        throw broken('RequestOne.deferred has no resolve()', 'settleAnsweredRequestsQuietly');
      }
      if (typeof request.mux?.cancel !== 'function')
        throw broken('RequestOne.mux has no cancel()', 'settleAnsweredRequestsQuietly');
    }
  });

  it("a real connection's writes go through protocol.flushPending, looked up on the instance", async () => {
    const coalesced = await connect({ servers: nats.url });
    try {
      coalesceWritesPerTick(coalesced);
      const protocol = (coalesced as unknown as { protocol: { flushPending(): void } }).protocol;
      const coalescing = protocol.flushPending.bind(protocol);
      let calls = 0;
      protocol.flushPending = () => {
        calls++;
        coalescing();
      };
      const received = new Promise((resolve) =>
        connection.subscribe('internals.write', { max: 1, callback: resolve }),
      );
      await connection.flush();
      coalesced.publish('internals.write', 'written');
      await received;
      if (calls === 0)
        throw broken('publishing no longer calls protocol.flushPending', 'coalesceWritesPerTick');
    } finally {
      await coalesced.close();
    }
  });
});
