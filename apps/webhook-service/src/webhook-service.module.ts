import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseHealthIndicator, ServiceDatabaseModule, TableStatisticsKeeper } from '@cpc/database';
import { HealthModule } from '@cpc/health';
import { NatsConnectionModule, NatsHealthIndicator, NatsRpcClientModule } from '@cpc/nats';
import { webhooksDataSourceOptions } from './data-source.js';
import { DeliveryOutcomes } from './delivery/delivery-outcomes.js';
import { DeliverySignal } from './delivery/delivery-signal.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { TargetGuard } from './delivery/target-guard.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { ConnectorPlugs } from './events/connector-plugs.js';
import { ControllerLocations } from './events/controller-locations.js';
import { ParkedEventsRetrier } from './events/parked-events.retrier.js';
import { WebhookEventsConsumer } from './events/webhook-events.consumer.js';
import { SecretBox } from './signing/secret-box.js';
import { SigningKeys } from './signing/signing-keys.js';
import { SubscriptionIndex } from './subscriptions/subscription-index.js';
import { SubscriptionsHandler } from './subscriptions/subscriptions.handler.js';
import { SubscriptionsService } from './subscriptions/subscriptions.service.js';
import { WEBHOOK_SERVICE_CONFIG } from './webhook-service-config.token.js';
import { WEBHOOK_SERVICE_NAME, type WebhookServiceConfig } from './webhook-service.config.js';

/**
 * Webhook subscriptions and their deliveries: platform events in through durable consumers, one delivery row per
 * (event, subscription), sent signed from the database by the delivery worker of every replica.
 */
@Module({})
export class WebhookServiceModule {
  static register(config: WebhookServiceConfig): DynamicModule {
    const guard = new TargetGuard(config.allowedTargetRanges);
    const secretBox = new SecretBox(config.secretEncryptionSecret);
    return {
      module: WebhookServiceModule,
      imports: [
        ServiceDatabaseModule.register({
          ...webhooksDataSourceOptions(config.databaseUrl),
          poolSize: config.tuning.databasePoolSize,
        }),
        NatsConnectionModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          connectionName: WEBHOOK_SERVICE_NAME,
        }),
        NatsRpcClientModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          clientName: WEBHOOK_SERVICE_NAME,
          requestTimeoutMs: config.natsRequestTimeoutMs,
        }),
        HealthModule.register([DatabaseHealthIndicator, NatsHealthIndicator]),
      ],
      controllers: [SubscriptionsHandler],
      providers: [
        { provide: WEBHOOK_SERVICE_CONFIG, useValue: config },
        { provide: TargetGuard, useValue: guard },
        { provide: SecretBox, useValue: secretBox },
        { provide: SigningKeys, useValue: new SigningKeys(secretBox, config.tuning.signingKeysKept) },
        {
          provide: WebhookSender,
          useValue: new WebhookSender(guard, {
            connectTimeoutMs: config.connectTimeoutMs,
            responseTimeoutMs: config.responseTimeoutMs,
            responseBodyLimitBytes: config.tuning.responseBodyLimitBytes,
            idleConnectionMs: config.tuning.idleReceiverConnectionMs,
            maxIdleConnectionsPerReceiver: config.tuning.maxIdleConnectionsPerReceiver,
          }),
        },
        // The delivery statements are prepared: their generic plans are made again as the tables grow.
        TableStatisticsKeeper.provider({
          tables: ['webhooks.deliveries', 'webhooks.parked_events', 'webhooks.subscriptions'],
          checkIntervalMs: config.tuning.statisticsCheckIntervalMs,
          minPages: config.tuning.statisticsMinPages,
        }),
        DeliverySignal,
        DeliveryOutcomes,
        ControllerLocations,
        ConnectorPlugs,
        SubscriptionIndex,
        SubscriptionsService,
        WebhookEventsConsumer,
        ParkedEventsRetrier,
        DeliveryWorker,
      ],
    };
  }
}
