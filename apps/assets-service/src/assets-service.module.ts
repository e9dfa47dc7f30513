import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseHealthIndicator, ServiceDatabaseModule } from '@cpc/database';
import { HealthModule } from '@cpc/health';
import { NatsConnectionModule, NatsHealthIndicator } from '@cpc/nats';
import { ASSETS_SERVICE_NAME, type AssetsServiceConfig } from './assets-service.config.js';
import { ChargePointAuthenticationHandler } from './charge-points/charge-point-authentication.handler.js';
import { ChargePointStateConsumer } from './charge-points/charge-point-state.consumer.js';
import { ControllersHandler } from './controllers/controllers.handler.js';
import { ControllersService } from './controllers/controllers.service.js';
import { assetsDataSourceOptions } from './data-source.js';
import { FacilityTypesService } from './locations/facility-types.service.js';
import { LocationsHandler } from './locations/locations.handler.js';
import { LocationsService } from './locations/locations.service.js';
import { OUTBOX_RELAY_INTERVAL_MS, OutboxPublisher } from './outbox/outbox-publisher.js';
import { PlugsHandler } from './plugs/plugs.handler.js';
import { PlugsService } from './plugs/plugs.service.js';
import { SensorsHandler } from './sensors/sensors.handler.js';
import { SensorsService } from './sensors/sensors.service.js';

/** Locations, controllers, plugs and sensors, with the live state of controllers and plugs fed by gateway events. */
@Module({})
export class AssetsServiceModule {
  static register(config: AssetsServiceConfig): DynamicModule {
    return {
      module: AssetsServiceModule,
      imports: [
        ServiceDatabaseModule.register(assetsDataSourceOptions(config.databaseUrl)),
        NatsConnectionModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          connectionName: ASSETS_SERVICE_NAME,
        }),
        HealthModule.register([DatabaseHealthIndicator, NatsHealthIndicator]),
      ],
      controllers: [
        LocationsHandler,
        ControllersHandler,
        PlugsHandler,
        SensorsHandler,
        ChargePointAuthenticationHandler,
      ],
      providers: [
        { provide: OUTBOX_RELAY_INTERVAL_MS, useValue: config.outboxRelayIntervalMs },
        OutboxPublisher,
        LocationsService,
        FacilityTypesService,
        ControllersService,
        PlugsService,
        SensorsService,
        ChargePointStateConsumer,
      ],
    };
  }
}
