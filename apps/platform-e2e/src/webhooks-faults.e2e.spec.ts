import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { CommandSubjects } from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import {
  ApiTestClient,
  commandStatusChangedEvent,
  eventually,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  WebhookReceiver,
} from '@cpc/testing';

const COMMANDS = 8;
const STATUSES_PER_PHASE = 8;

/**
 * webhook-service SIGKILLed while deliveries are in flight (some receivers' requests hanging), NATS killed and
 * restarted, and its PostgreSQL connections cut: every event still arrives, each command's events in order, and an
 * event that arrives twice carries the same webhook-id both times.
 */
describe('webhooks under faults', () => {
  let platform: PlatformUnderTest;
  let receiver: WebhookReceiver;
  let nats: NatsConnection;
  let bus: JetStreamEventBus;
  let tenantUuid: string;
  let secret: string;
  const commands = Array.from({ length: COMMANDS }, () => randomUUID());
  let published = 0;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'webhook-service', 'api-gateway'],
      env: {
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8',
        WEBHOOK_RESPONSE_TIMEOUT_MS: '1000',
      },
    });
    const api = await ApiTestClient.connect(platform.apiUrl);
    const { operator: token } = await tenantWithUsers(platform, api, 'acme', { operator: 'webhooks' });
    tenantUuid = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).tenant_uuid;
    // One request in eleven hangs until the response timeout: deliveries are in flight when the service dies.
    receiver = await WebhookReceiver.start((_webhook, index) => (index % 11 === 5 ? 'hang' : 200));
    const created = await api.call('POST', '/api/v1/webhooks', {
      token,
      body: { url: receiver.url, event_types: ['command.status_changed'] },
    });
    expect(created.status).toBe(201);
    secret = created.body.secret;
    nats = await connect(platform.natsTestClientOptions);
    bus = new JetStreamEventBus(nats);
  }, 180_000);

  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await nats?.close();
    await receiver?.close();
    await platform?.stop();
  });

  /** One status for each command, numbered in publishing order. */
  async function publishPhase(): Promise<void> {
    for (let step = 0; step < STATUSES_PER_PHASE; step += 1) {
      published += 1;
      const status = `s${String(published).padStart(3, '0')}`;
      for (const commandUuid of commands) {
        const event = commandStatusChangedEvent({
          tenantUuid,
          commandUuid,
          status,
          controllerUuid: commandUuid,
        });
        await bus.publish(CommandSubjects.statusChanged, event);
      }
    }
  }

  async function cutDatabaseConnections(): Promise<void> {
    const client = new pg.Client({ connectionString: platform.databaseUrl });
    await client.connect();
    await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'cpc-webhooks' AND pid <> pg_backend_pid()`,
    );
    await client.end();
  }

  it('delivers every event, in order per command, duplicates only with the same webhook-id', async () => {
    const webhookService = platform.service('webhook-service');
    await publishPhase();
    await eventually(
      () => receiver.received.length,
      (count) => count >= 10,
    );
    await webhookService.kill();
    await publishPhase();
    await platform.nats.kill();
    await sleep(500);
    await platform.nats.restart();
    await webhookService.restart();
    await publishPhase();
    await cutDatabaseConnections();
    await publishPhase();

    const expected = published * COMMANDS;
    await eventually(
      () => new Set(receiver.received.map((webhook) => webhook.body)).size,
      (unique) => unique === expected,
      { timeoutMs: 150_000, intervalMs: 500 },
    );
    const idsOf = new Map<string, Set<string>>();
    for (const webhook of receiver.received) {
      expect(() => new Webhook(secret).verify(webhook.body, webhook.headers)).not.toThrow();
      const ids = idsOf.get(webhook.body) ?? new Set<string>();
      ids.add(webhook.headers['webhook-id']);
      idsOf.set(webhook.body, ids);
    }
    expect([...idsOf.values()].filter((ids) => ids.size > 1)).toEqual([]);
    for (const commandUuid of commands) {
      const firsts = [
        ...new Set(
          receiver
            .bodies()
            .map((body) => body.data.command as { command_uuid: string; status: string })
            .filter((command) => command.command_uuid === commandUuid)
            .map((command) => command.status),
        ),
      ];
      expect(firsts).toEqual([...firsts].sort());
      expect(firsts).toHaveLength(published);
    }
  }, 240_000);
});
