import { randomUUID } from 'node:crypto';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { TenantScopedRequest } from '@cpc/contracts';
import { JetStreamEventBus, ServiceClient } from '@cpc/nats';
import { type NatsTestServer, startNatsTestServer } from './nats-test-server.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** What the rig needs of a started service (service-runtime's StartedService; its spec uses this library). */
export interface StartedService {
  app: { close(): Promise<void> };
}

export interface ServiceTestRigOptions {
  /** Runs the service's migrations on the fresh database. */
  migrate(databaseUrl: string): Promise<unknown>;
  /** Starts the service in-process on the rig's NATS and database. */
  start(urls: { natsUrl: string; databaseUrl: string }): Promise<StartedService>;
  /** Before the service starts: stand-ins for the services it calls, on the rig's own connection. */
  beforeStart?(connection: NatsConnection): Promise<void> | void;
  /** How long a request through `call` may take (default 5 s). */
  requestTimeoutMs?: number;
}

/**
 * One service in-process against a private NATS server (JetStream) and a fresh PostgreSQL database, with a plain
 * connection and an event bus for publishing or consuming its events, and a client that calls it as the api-gateway
 * does. For a service's integration tests; `stop()` tears it all down in the reverse order.
 */
export class ServiceTestRig {
  /** The service under test; undefined between stopService() and startService(). */
  service: StartedService | undefined;

  private constructor(
    private readonly options: ServiceTestRigOptions,
    readonly nats: NatsTestServer,
    readonly database: TestDatabase,
    readonly connection: NatsConnection,
    readonly eventBus: JetStreamEventBus,
    readonly client: ServiceClient,
  ) {}

  static async start(options: ServiceTestRigOptions): Promise<ServiceTestRig> {
    const [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    let connection: NatsConnection | undefined;
    try {
      await options.migrate(database.url);
      connection = await connect({ servers: nats.url });
      await options.beforeStart?.(connection);
      const client = new ServiceClient(
        ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [nats.url] } }),
        options.requestTimeoutMs ?? 5000,
      );
      const rig = new ServiceTestRig(
        options,
        nats,
        database,
        connection,
        new JetStreamEventBus(connection),
        client,
      );
      await rig.startService();
      return rig;
    } catch (error) {
      // A failed start leaves no server process or database behind to hang the test run.
      await connection?.close();
      await Promise.all([nats.stop(), database.drop()]);
      throw error;
    }
  }

  async startService(): Promise<void> {
    this.service = await this.options.start({ natsUrl: this.nats.url, databaseUrl: this.database.url });
  }

  async stopService(): Promise<void> {
    await this.service?.app.close();
    this.service = undefined;
  }

  /** A request of a user of `tenantUuid` with every scope, in the envelope the api-gateway sends. */
  call<T>(subject: string, payload: unknown, tenantUuid: string): Promise<T> {
    const request: TenantScopedRequest<unknown> = {
      principal: {
        tenantUuid,
        tenantSlug: 'tenant',
        subject: randomUUID(),
        subjectType: 'user',
        scopes: ['*'],
      },
      payload,
    };
    return this.client.request<T>(subject, request);
  }

  async stop(): Promise<void> {
    await this.eventBus.onApplicationShutdown();
    await this.connection.drain();
    await this.client.onApplicationShutdown();
    await this.stopService();
    await Promise.all([this.nats.stop(), this.database.drop()]);
  }
}
