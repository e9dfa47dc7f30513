import { randomUUID } from 'node:crypto';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { connect, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  type CommandStatusChangedEvent,
  CommandSubjects,
  type ControllerView,
  ErrorCode,
  type OcppCallReply,
  type OcppCallRequest,
  OcppGatewaySubjects,
  type PlugFilter,
  type PlugView,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { JetStreamEventBus, ServiceClient } from '@cpc/nats';
import type { RunningService } from '@cpc/service-runtime';
import {
  createTestDatabase,
  type NatsTestServer,
  startNatsTestServer,
  type TestDatabase,
} from '@cpc/testing';
import { DataSource } from 'typeorm';
import { loadCommandServiceConfig } from '../../command-service.config.js';
import { createControlDataSource } from '../../data-source.js';
import { startCommandService } from '../../start-command-service.js';

/** What the stand-in assets-service knows, per tenant. */
export interface StandInAssets {
  controllers: Map<string, { tenantUuid: string }>;
  plugs: Map<
    string,
    { tenantUuid: string; plug: Pick<PlugView, 'uuid' | 'controller_uuid' | 'connector_id' | 'evse_id'> }
  >;
}

/**
 * command-service in-process on a private NATS server and a fresh database, with a stand-in assets-service (Nest's
 * NATS envelope) and a client that calls it as the api-gateway does. For the commands' integration tests.
 */
export class CommandServiceHarness {
  readonly assets: StandInAssets = { controllers: new Map(), plugs: new Map() };
  readonly statusEvents: CommandStatusChangedEvent[] = [];
  nats!: NatsTestServer;
  database!: TestDatabase;
  connection!: NatsConnection;
  service: RunningService | undefined;
  eventBus!: JetStreamEventBus;
  private client!: ServiceClient;
  private dataSource: DataSource | undefined;

  private env: Record<string, string> = {};

  async start(env: Record<string, string> = {}): Promise<void> {
    this.env = env;
    [this.nats, this.database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    await migrateServiceSchema(createControlDataSource(this.database.url));
    this.connection = await connect({ servers: this.nats.url });
    this.serveAssets();
    this.eventBus = new JetStreamEventBus(this.connection);
    await this.eventBus.consume(
      { durableName: 'test_command-status', filterSubject: CommandSubjects.statusChanged },
      (_subject, event) => {
        this.statusEvents.push(event as CommandStatusChangedEvent);
        return Promise.resolve();
      },
    );
    await this.startService();
    this.client = new ServiceClient(
      ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [this.nats.url] } }),
      10_000,
    );
  }

  async startService(env: Record<string, string> = {}): Promise<void> {
    this.service = await this.launch(env);
  }

  /** Another command-service instance on the same database and NATS (the caller closes it). */
  launch(env: Record<string, string> = {}): Promise<RunningService> {
    return startCommandService(
      loadCommandServiceConfig({
        NATS_URL: this.nats.url,
        DATABASE_URL: this.database.url,
        HEALTH_PORT: '0',
        LOG_LEVEL: 'error',
        COMMAND_DISPATCH_INTERVAL_MS: '100',
        OUTBOX_RELAY_INTERVAL_MS: '200',
        OCPP_CALL_TIMEOUT_MS: '1000',
        COMMAND_LEASE_MS: '2000',
        COMMAND_OFFLINE_RECHECK_MS: '500',
        ...this.env,
        ...env,
      }),
    );
  }

  async stopService(): Promise<void> {
    await this.service?.app.close();
    this.service = undefined;
  }

  async stop(): Promise<void> {
    await this.eventBus?.onApplicationShutdown();
    await this.connection?.drain();
    await this.client?.onApplicationShutdown();
    await this.stopService();
    await this.dataSource?.destroy();
    await Promise.all([this.nats?.stop(), this.database?.drop()]);
  }

  /** Direct SQL on the service's database, for seeding and for looking behind the API. */
  async sql<T>(query: string, parameters: unknown[] = []): Promise<T[]> {
    this.dataSource ??= await new DataSource({ type: 'postgres', url: this.database.url }).initialize();
    return this.dataSource.query<T[]>(query, parameters);
  }

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

  /**
   * Plays the ocpp-gateway instance holding `controllerUuid`: answers its call requests with `answer` (undefined =
   * no reply at all). Unsubscribe to make the charge point offline again.
   */
  serveCalls(
    controllerUuid: string,
    answer: (request: OcppCallRequest) => Promise<OcppCallReply | undefined> | OcppCallReply | undefined,
  ): Subscription {
    return this.connection.subscribe(OcppGatewaySubjects.call(controllerUuid), {
      callback: (_error, message: Msg) => {
        void Promise.resolve(answer(message.json<OcppCallRequest>())).then((reply) => {
          if (reply) message.respond(JSON.stringify(reply));
        });
      },
    });
  }

  /** Publishes a durable event as the gateway or assets-service would. */
  async publish(subject: string, tenantUuid: string, data: Record<string, unknown>): Promise<void> {
    await this.eventBus.publish(subject, {
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid,
      data,
    });
  }

  /** The statuses a command went through, from its status events, in the order they were published. */
  statusesOf(commandUuid: string): string[] {
    return this.statusEvents
      .filter((event) => event.data.command.command_uuid === commandUuid)
      .map((event) => event.data.command.status);
  }

  addController(tenantUuid: string, controllerUuid: string = randomUUID()): string {
    this.assets.controllers.set(controllerUuid, { tenantUuid });
    return controllerUuid;
  }

  addPlug(tenantUuid: string, controllerUuid: string, connectorId: number, evseId = connectorId): string {
    const uuid = randomUUID();
    this.assets.plugs.set(uuid, {
      tenantUuid,
      plug: { uuid, controller_uuid: controllerUuid, connector_id: connectorId, evse_id: evseId },
    });
    return uuid;
  }

  private serveAssets(): void {
    const serve = (
      subject: string,
      answer: (request: TenantScopedRequest<Record<string, unknown>>) => unknown,
    ) =>
      this.connection.subscribe(subject, {
        callback: (_error, message: Msg) => {
          const { id, data } = message.json<{
            id: string;
            data: TenantScopedRequest<Record<string, unknown>>;
          }>();
          const response = answer(data);
          const body =
            response === undefined
              ? { id, err: { code: ErrorCode.NotFound, message: 'not found' }, isDisposed: true }
              : { id, response, isDisposed: true };
          message.respond(JSON.stringify(body));
        },
      });
    serve(AssetsSubjects.getController, ({ principal, payload }) => {
      const controller = this.assets.controllers.get(payload.uuid as string);
      if (controller?.tenantUuid !== principal.tenantUuid) return undefined;
      const view: Partial<ControllerView> = { uuid: payload.uuid as string };
      return view;
    });
    serve(AssetsSubjects.getPlug, ({ principal, payload }) => {
      const plug = this.assets.plugs.get(payload.uuid as string);
      return plug?.tenantUuid === principal.tenantUuid ? plug.plug : undefined;
    });
    serve(AssetsSubjects.listPlugs, ({ principal, payload }) => {
      const filter = payload.filter as PlugFilter;
      const items = [...this.assets.plugs.values()]
        .filter(
          ({ tenantUuid, plug }) =>
            tenantUuid === principal.tenantUuid &&
            plug.controller_uuid === filter.controller_uuid &&
            (filter.evse_id === undefined || plug.evse_id === filter.evse_id),
        )
        .map(({ plug }) => plug)
        .sort((a, b) => a.connector_id - b.connector_id);
      return { items, pagination: { page: 1, total_pages: 1, page_size: 50, has_more: false } };
    });
  }
}

/** Probes until `accept` holds (every 50 ms, `timeoutMs` at most). */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
