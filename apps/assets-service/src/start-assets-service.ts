import { bootstrapService, type RunningService } from '@cpc/service-runtime';
import { ASSETS_SERVICE_NAME, type AssetsServiceConfig } from './assets-service.config.js';
import { AssetsServiceModule } from './assets-service.module.js';

/** Starts assets-service (main.ts in production, integration tests in-process). Migrations run before, in migrate.ts. */
export function startAssetsService(config: AssetsServiceConfig): Promise<RunningService> {
  return bootstrapService({
    serviceName: ASSETS_SERVICE_NAME,
    module: AssetsServiceModule.register(config),
    config,
    natsRequestHandlers: true,
  });
}
