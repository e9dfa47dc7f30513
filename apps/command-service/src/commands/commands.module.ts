import { type DynamicModule, Module } from '@nestjs/common';
import { TransactionalOutbox } from '@cpc/database';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource } from 'typeorm';
import type { CommandServiceConfig } from '../command-service.config.js';
import { CommandsHandler } from './commands.handler.js';
import { CommandCreationService } from './creation/command-creation.service.js';
import { CommandTargetResolver } from './creation/command-target.resolver.js';
import { DispatchSignal } from './delivery/dispatch-signal.js';
import { CommandReader } from './listing/command-reader.js';

/** Commands: creation, idempotency, delivery to charge points, outcomes, listing. */
@Module({})
export class CommandsModule {
  static register(config: CommandServiceConfig): DynamicModule {
    return {
      module: CommandsModule,
      controllers: [CommandsHandler],
      providers: [
        {
          provide: TransactionalOutbox,
          inject: [DataSource, JetStreamEventBus],
          useFactory: (dataSource: DataSource, eventBus: JetStreamEventBus) =>
            new TransactionalOutbox(dataSource, eventBus, {
              table: 'control.outbox_events',
              relayIntervalMs: config.outboxRelayIntervalMs,
            }),
        },
        CommandCreationService,
        CommandTargetResolver,
        CommandReader,
        DispatchSignal,
      ],
    };
  }
}
