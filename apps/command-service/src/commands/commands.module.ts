import { type DynamicModule, Module } from '@nestjs/common';
import { ReservationsModule } from '../reservations/reservations.module.js';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { createServiceDataSource, TableStatisticsKeeper, TransactionalOutbox } from '@cpc/database';
import { JetStreamEventBus } from '@cpc/nats';
import type { DataSource } from 'typeorm';
import { COMMAND_SERVICE_CONFIG } from '../command-service-config.token.js';
import type { CommandServiceConfig } from '../command-service.config.js';
import { controlDataSourceOptions } from '../data-source.js';
import { CONTROL_OUTBOX_TABLE } from '../repositories/commands.repository.js';
import { CommandStatusMetrics } from './command-status.metrics.js';
import { CommandsHandler } from './commands.handler.js';
import { CommandCreationService } from './creation/command-creation.service.js';
import { CommandInserts } from './creation/command-inserts.js';
import { CommandTargetResolver } from './creation/command-target.resolver.js';
import { LocalListTokens } from './creation/local-list-tokens.js';
import { SettingLimits } from './creation/setting-limits.js';
import { ControllerLookups } from './creation/controller-lookups.js';
import { IdempotencyKeySweeper } from './creation/idempotency-key.sweeper.js';
import { ChargePointLifecycleConsumer } from './delivery/charge-point-lifecycle.consumer.js';
import { CommandDispatcher } from './delivery/command-dispatcher.js';
import { DeliveryQueue } from './delivery/delivery-queue.js';
import { DeliveryWakeupsListener } from './delivery/delivery-wakeups.listener.js';
import { DispatchSignal } from './delivery/dispatch-signal.js';
import { GatewayCallClient } from './delivery/gateway-call.client.js';
import { CommandReader } from './listing/command-reader.js';
import { DELIVERY_CONNECTION } from './delivery-connection.js';
import { CommandTransitions } from './outcomes/command-transitions.js';
import { GatewayCallEventsConsumer } from './outcomes/gateway-call-events.consumer.js';

/** Commands: creation, idempotency, delivery to charge points, outcomes, listing. */
@Module({})
export class CommandsModule {
  static register(config: CommandServiceConfig): DynamicModule {
    return {
      module: CommandsModule,
      imports: [
        // Delivery has a pool of its own, so that creations (each a transaction that may wait for its turn at the
        // count rows) cannot take every connection and hold up claims and outcomes: more created would mean less
        // delivered.
        TypeOrmModule.forRootAsync({
          name: DELIVERY_CONNECTION,
          useFactory: () => ({ retryAttempts: 5, retryDelay: 1000 }),
          dataSourceFactory: async () =>
            createServiceDataSource({
              ...controlDataSourceOptions(config.databaseUrl),
              poolSize: config.tuning.deliveryPoolSize,
            }).initialize(),
        }),
        ReservationsModule,
      ],
      controllers: [CommandsHandler],
      providers: [
        { provide: COMMAND_SERVICE_CONFIG, useValue: config },
        {
          provide: TransactionalOutbox,
          inject: [getDataSourceToken(DELIVERY_CONNECTION), JetStreamEventBus],
          useFactory: (dataSource: DataSource, eventBus: JetStreamEventBus) =>
            new TransactionalOutbox(dataSource, eventBus, {
              table: CONTROL_OUTBOX_TABLE,
              relayIntervalMs: config.outboxRelayIntervalMs,
            }),
        },
        // The delivery statements are prepared: their generic plans are made again as the tables grow.
        TableStatisticsKeeper.provider({
          tables: ['control.commands'],
          checkIntervalMs: config.tuning.statisticsCheckIntervalMs,
          minPages: config.tuning.statisticsMinPages,
        }),
        CommandCreationService,
        CommandInserts,
        CommandTargetResolver,
        SettingLimits,
        LocalListTokens,
        ControllerLookups,
        IdempotencyKeySweeper,
        CommandReader,
        DispatchSignal,
        DeliveryQueue,
        GatewayCallClient,
        CommandTransitions,
        CommandDispatcher,
        GatewayCallEventsConsumer,
        ChargePointLifecycleConsumer,
        DeliveryWakeupsListener,
        CommandStatusMetrics,
      ],
    };
  }
}
