import { bootstrapService, type RunningService } from '@cpc/service-runtime';
import { WEBHOOK_SERVICE_NAME, type WebhookServiceConfig } from './webhook-service.config.js';
import { WebhookServiceModule } from './webhook-service.module.js';

/** Starts webhook-service (main.ts in production, integration tests in-process). Migrations run before, in migrate.ts. */
export function startWebhookService(config: WebhookServiceConfig): Promise<RunningService> {
  return bootstrapService({
    serviceName: WEBHOOK_SERVICE_NAME,
    module: WebhookServiceModule.register(config),
    config,
    natsRequestHandlers: true,
  });
}
