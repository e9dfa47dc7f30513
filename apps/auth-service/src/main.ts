import 'reflect-metadata';
import { bootstrapService, runServiceMain } from '@cpc/service-runtime';
import { AuthServiceModule } from './auth-service.module.js';
import { loadAuthServiceConfig } from './auth-service.config.js';

runServiceMain(async () => {
  const config = loadAuthServiceConfig();
  await bootstrapService({
    serviceName: 'auth-service',
    module: AuthServiceModule.register(config),
    config,
    natsRequestHandlers: true,
  });
});
