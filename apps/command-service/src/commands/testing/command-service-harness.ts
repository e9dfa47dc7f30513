import { randomUUID } from 'node:crypto';
import type { Type } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  type CommandStatusChangedEvent,
  CommandSubjects,
  type ConnectionOpenedNotice,
  type ControllersExistRequest,
  type ControllersExistResponse,
  type OcppCallReply,
  type OcppCallRequest,
  OcppGatewaySubjects,
  type PlugFilter,
  type PlugView,
} from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import type { RunningService } from '@cpc/service-runtime';
import { serveAsNestService, ServiceTestRig } from '@cpc/testing';
import { DataSource } from 'typeorm';
import { loadCommandServiceConfig } from '../../command-service.config.js';
import { createControlDataSource } from '../../data-source.js';
import { startCommandService } from '../../start-command-service.js';

/** A charge point's accepting answer to a soft_reset, as the gateway replies with it. */
export const ACCEPTED_RESET_REPLY: OcppCallReply = {
  outcome: 'answered',
  action: 'Reset',
  response: { status: 'Accepted' },
  status: 'accepted',
  resultStatus: 'Accepted',
};

/** What the stand-in assets-service knows, per tenant. */
export interface StandInAssets {
  controllers: Map<string, { tenantUuid: string }>;
  plugs: Map<
    string,
    { tenantUuid: string; plug: Pick<PlugView, 'uuid' | 'controller_uuid' | 'connector_id' | 'evse_id'> }
  >;
}

/**
 * command-service in-process on a private NATS server and a fresh database (a ServiceTestRig), with a stand-in
 * assets-service, the status events it publishes collected, and short intervals. For the commands' integration tests.
 */
export class CommandServiceHarness {
  readonly assets: StandInAssets = { controllers: new Map(), plugs: new Map() };
  readonly statusEvents: CommandStatusChangedEvent[] = [];
  /** Existence requests the stand-in assets-service answered (each may carry many controllers). */
  controllerLookups = 0;
  private rig!: ServiceTestRig;
  private urls = { natsUrl: '', databaseUrl: '' };
  private dataSource: DataSource | undefined;
  /** The instance the rig runs (startService() replaces it). */
  private running: RunningService | undefined;

  private env: Record<string, string> = {};

  async start(env: Record<string, string> = {}): Promise<void> {
    this.env = env;
    this.rig = await ServiceTestRig.start({
      migrate: (databaseUrl) => migrateServiceSchema(createControlDataSource(databaseUrl)),
      beforeStart: (connection) => this.serveAssets(connection),
      start: async (urls) => {
        this.urls = urls;
        this.running = await this.launch();
        return this.running;
      },
      requestTimeoutMs: 10_000,
    });
    await this.rig.eventBus.consume(
      { durableName: 'test_command-status', filterSubject: CommandSubjects.statusChanged },
      (_subject, event) => {
        this.statusEvents.push(event as CommandStatusChangedEvent);
        return Promise.resolve();
      },
    );
  }

  /** A provider of the running instance, to watch what it does. */
  provider<T>(token: Type<T> | string): T {
    if (!this.rig.service || !this.running) throw new Error('command-service is not running');
    return this.running.app.get<T>(token, { strict: false });
  }

  startService(): Promise<void> {
    return this.rig.startService();
  }

  /** Another command-service instance on the same database and NATS (the caller closes it). */
  launch(env: Record<string, string> = {}): Promise<RunningService> {
    return startCommandService(
      loadCommandServiceConfig({
        NATS_URL: this.urls.natsUrl,
        DATABASE_URL: this.urls.databaseUrl,
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

  stopService(): Promise<void> {
    return this.rig.stopService();
  }

  async stop(): Promise<void> {
    await this.dataSource?.destroy();
    await this.rig?.stop();
  }

  /** Direct SQL on the service's database, for seeding and for looking behind the API. */
  async sql<T>(query: string, parameters: unknown[] = []): Promise<T[]> {
    return (await this.database()).query<T[]>(query, parameters);
  }

  private async database(): Promise<DataSource> {
    this.dataSource ??= await new DataSource({ type: 'postgres', url: this.urls.databaseUrl }).initialize();
    return this.dataSource;
  }

  /**
   * Takes a charge point's lane lock (as control.lane_is_free takes it) in a transaction of its own, held until
   * `release`: what a creation or a claim deciding that lane on another connection holds meanwhile.
   */
  async holdLaneLock(controllerUuid: string): Promise<{ release: () => Promise<void> }> {
    const runner = (await this.database()).createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query('SELECT control.lane_is_free($1, NULL)', [controllerUuid]);
    return {
      release: async () => {
        await runner.commitTransaction();
        await runner.release();
      },
    };
  }

  call<T>(subject: string, payload: unknown, tenantUuid: string): Promise<T> {
    return this.rig.call<T>(subject, payload, tenantUuid);
  }

  /**
   * Plays the ocpp-gateway instance holding `controllerUuid`: answers its call requests with `answer` (undefined =
   * no reply at all). Unsubscribe to make the charge point offline again.
   */
  serveCalls(
    controllerUuid: string,
    answer: (request: OcppCallRequest) => Promise<OcppCallReply | undefined> | OcppCallReply | undefined,
  ): Subscription {
    return this.rig.connection.subscribe(OcppGatewaySubjects.call(controllerUuid), {
      callback: (_error, message: Msg) => {
        void Promise.resolve(answer(message.json<OcppCallRequest>())).then((reply) => {
          if (reply) message.respond(JSON.stringify(reply));
        });
      },
    });
  }

  /**
   * Announces a new connection of the charge point as a gateway instance does once its call subject is served there
   * (ConnectionOpenedNotice); serve its calls (serveCalls) first.
   */
  async announceConnection(controllerUuid: string, gatewayInstance = 'test-gateway'): Promise<void> {
    await this.rig.connection.flush();
    const notice: ConnectionOpenedNotice = { controllerUuid, connectionId: randomUUID(), gatewayInstance };
    this.rig.connection.publish(OcppGatewaySubjects.connectionOpened(controllerUuid), JSON.stringify(notice));
    await this.rig.connection.flush();
  }

  /**
   * Kills the NATS server (SIGKILL) and starts it again on its store; resolves once the test's own connection is
   * back (its subscriptions, e.g. serveCalls, served again).
   */
  async restartNats(): Promise<void> {
    const back = (async () => {
      for await (const status of this.rig.connection.status()) if (status.type === 'reconnect') return;
    })();
    await this.rig.nats.kill();
    await this.rig.nats.restart();
    await back;
  }

  /** Publishes a durable event as the gateway or assets-service would. */
  async publish(subject: string, tenantUuid: string, data: Record<string, unknown>): Promise<void> {
    await this.rig.eventBus.publish(subject, {
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

  private serveAssets(connection: NatsConnection): void {
    connection.subscribe(AssetsSubjects.controllersExist, {
      callback: (_error, message) => {
        const { id, data } = message.json<{ id: string; data: ControllersExistRequest }>();
        this.controllerLookups += 1;
        const response: ControllersExistResponse = {
          exists: data.controllers.map(
            ({ tenantUuid, uuid }) => this.assets.controllers.get(uuid)?.tenantUuid === tenantUuid,
          ),
        };
        message.respond(JSON.stringify({ id, response, isDisposed: true }));
      },
    });
    serveAsNestService<{ uuid: string }>(connection, AssetsSubjects.getPlug, ({ principal, payload }) => {
      const plug = this.assets.plugs.get(payload.uuid);
      return plug?.tenantUuid === principal.tenantUuid ? plug.plug : undefined;
    });
    serveAsNestService<{ filter: PlugFilter }>(
      connection,
      AssetsSubjects.listPlugs,
      ({ principal, payload }) => {
        const { filter } = payload;
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
      },
    );
  }
}
