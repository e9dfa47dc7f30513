import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseHealthIndicator, ServiceDatabaseModule, TransactionalOutbox } from '@cpc/database';
import { HealthModule } from '@cpc/health';
import { JetStreamEventBus, NatsConnectionModule, NatsHealthIndicator } from '@cpc/nats';
import { DataSource } from 'typeorm';
import {
  ASSETS_SERVICE_NAME,
  ASSETS_SERVICE_TUNING_TOKEN,
  type AssetsServiceConfig,
} from './assets-service.config.js';
import { CHARGE_POINT_AUTHENTICATION_CONFIG } from './charge-points/charge-point-authentication.config.js';
import { ChargePointAuthenticationHandler } from './charge-points/charge-point-authentication.handler.js';
import { ChargePointAuthenticationService } from './charge-points/charge-point-authentication.service.js';
import { HandshakeControllerLookup } from './charge-points/handshake-controller.lookup.js';
import { HandshakeFailureCounters } from './charge-points/handshake-failure.counters.js';
import { OcppPasswordHasher } from './charge-points/ocpp-password-hasher.js';
import { PasswordCheckCapacity } from './charge-points/password-check.capacity.js';
import { VerifiedPasswordCache } from './charge-points/verified-password.cache.js';
import { ChargePointStateConsumer } from './charge-points/charge-point-state.consumer.js';
import { ControllerEventLogConsumer } from './controller-events/controller-event-log.consumer.js';
import { ControllerEventsHandler } from './controller-events/controller-events.handler.js';
import { ControllerEventsService } from './controller-events/controller-events.service.js';
import { ControllerConfigurationConsumer } from './controller-configuration/controller-configuration.consumer.js';
import { ControllerConfigurationHandler } from './controller-configuration/controller-configuration.handler.js';
import { ControllerConfigurationService } from './controller-configuration/controller-configuration.service.js';
import { ControllersHandler } from './controllers/controllers.handler.js';
import { ControllersService } from './controllers/controllers.service.js';
import { assetsDataSourceOptions } from './data-source.js';
import { AuthorizationDecisionsHandler } from './authorization-decisions/authorization-decisions.handler.js';
import { AuthorizationDecisionsService } from './authorization-decisions/authorization-decisions.service.js';
import { IdTokenSnapshots } from './id-tokens/id-token-snapshots.js';
import { IdTokensHandler } from './id-tokens/id-tokens.handler.js';
import { IdTokensService } from './id-tokens/id-tokens.service.js';
import { LocalListsHandler } from './local-lists/local-lists.handler.js';
import { LocalListsService } from './local-lists/local-lists.service.js';
import { FacilityTypesService } from './locations/facility-types.service.js';
import { LocationsHandler } from './locations/locations.handler.js';
import { LocationsService } from './locations/locations.service.js';
import { PlugsHandler } from './plugs/plugs.handler.js';
import { PlugsService } from './plugs/plugs.service.js';
import { SensorsHandler } from './sensors/sensors.handler.js';
import { SensorsService } from './sensors/sensors.service.js';

/** The transactional outbox's table (its columns: see TransactionalOutboxOptions). */
const ASSETS_OUTBOX_TABLE = 'assets.outbox_events';

/** Locations, controllers, plugs, sensors and drivers' id tokens, with the live state of controllers and plugs fed by gateway events. */
@Module({})
export class AssetsServiceModule {
  static register(config: AssetsServiceConfig): DynamicModule {
    return {
      module: AssetsServiceModule,
      imports: [
        ServiceDatabaseModule.register({
          ...assetsDataSourceOptions(config.databaseUrl),
          poolSize: config.tuning.databasePoolSize,
        }),
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
        ControllerEventsHandler,
        ControllerConfigurationHandler,
        PlugsHandler,
        SensorsHandler,
        IdTokensHandler,
        LocalListsHandler,
        AuthorizationDecisionsHandler,
        ChargePointAuthenticationHandler,
      ],
      providers: [
        { provide: CHARGE_POINT_AUTHENTICATION_CONFIG, useValue: config.chargePointAuthentication },
        { provide: ASSETS_SERVICE_TUNING_TOKEN, useValue: config.tuning },
        OcppPasswordHasher,
        PasswordCheckCapacity,
        VerifiedPasswordCache,
        HandshakeFailureCounters,
        HandshakeControllerLookup,
        ChargePointAuthenticationService,
        {
          provide: TransactionalOutbox,
          inject: [DataSource, JetStreamEventBus],
          useFactory: (dataSource: DataSource, eventBus: JetStreamEventBus) =>
            new TransactionalOutbox(dataSource, eventBus, {
              table: ASSETS_OUTBOX_TABLE,
              relayIntervalMs: config.outboxRelayIntervalMs,
              batchSize: config.tuning.outboxBatchSize,
            }),
        },
        LocationsService,
        FacilityTypesService,
        ControllersService,
        ControllerConfigurationService,
        ControllerConfigurationConsumer,
        PlugsService,
        SensorsService,
        IdTokensService,
        IdTokenSnapshots,
        LocalListsService,
        AuthorizationDecisionsService,
        ChargePointStateConsumer,
        ControllerEventsService,
        ControllerEventLogConsumer,
      ],
    };
  }
}
