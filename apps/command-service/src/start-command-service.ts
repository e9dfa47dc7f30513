import { bootstrapService, type RunningService } from '@cpc/service-runtime';
import { COMMAND_SERVICE_NAME, type CommandServiceConfig } from './command-service.config.js';
import { CommandServiceModule } from './command-service.module.js';

/** Starts command-service (main.ts in production, integration tests in-process). Migrations run before, in migrate.ts. */
export function startCommandService(config: CommandServiceConfig): Promise<RunningService> {
  return bootstrapService({
    serviceName: COMMAND_SERVICE_NAME,
    module: CommandServiceModule.register(config),
    config,
    natsRequestHandlers: true,
  });
}
