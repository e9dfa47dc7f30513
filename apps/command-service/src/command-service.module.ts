import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseHealthIndicator, ServiceDatabaseModule } from '@cpc/database';
import { HealthModule } from '@cpc/health';
import { NatsConnectionModule, NatsHealthIndicator, NatsRpcClientModule } from '@cpc/nats';
import { ChargingSessionEventsConsumer } from './charging-sessions/charging-session-events.consumer.js';
import { ChargingSessionPlugResolver } from './charging-sessions/charging-session-plug.resolver.js';
import { ChargingSessionsHandler } from './charging-sessions/charging-sessions.handler.js';
import { ChargingSessionsService } from './charging-sessions/charging-sessions.service.js';
import { CommandsModule } from './commands/commands.module.js';
import { COMMAND_SERVICE_CONFIG } from './command-service-config.token.js';
import { COMMAND_SERVICE_NAME, type CommandServiceConfig } from './command-service.config.js';
import { controlDataSourceOptions } from './data-source.js';
import { MeterValuesModule } from './meter-values/meter-values.module.js';
import { ReservationsModule } from './reservations/reservations.module.js';

/** Commands and their lifecycle; charging sessions, their meter values and reservations, fed by the gateway's events. */
@Module({})
export class CommandServiceModule {
  static register(config: CommandServiceConfig): DynamicModule {
    return {
      module: CommandServiceModule,
      imports: [
        ServiceDatabaseModule.register(controlDataSourceOptions(config.databaseUrl)),
        NatsConnectionModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          connectionName: COMMAND_SERVICE_NAME,
        }),
        NatsRpcClientModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          clientName: COMMAND_SERVICE_NAME,
          requestTimeoutMs: config.natsRequestTimeoutMs,
        }),
        HealthModule.register([DatabaseHealthIndicator, NatsHealthIndicator]),
        CommandsModule.register(config),
        MeterValuesModule.register(config),
        ReservationsModule,
      ],
      controllers: [ChargingSessionsHandler],
      providers: [
        { provide: COMMAND_SERVICE_CONFIG, useValue: config },
        ChargingSessionsService,
        ChargingSessionPlugResolver,
        ChargingSessionEventsConsumer,
      ],
    };
  }
}
