import 'reflect-metadata';
import { runServiceMain } from '@cpc/service-runtime';
import { loadApiGatewayConfig } from './api-gateway.config.js';
import { createApiGatewayApp } from './create-api-gateway-app.js';

runServiceMain(async () => {
  const config = loadApiGatewayConfig();
  const app = await createApiGatewayApp(config);
  await app.listen(config.apiPort, '0.0.0.0');
});
