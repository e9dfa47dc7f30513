import 'reflect-metadata';
import { runServiceMain } from '@cpc/service-runtime';
import { loadWebhookServiceConfig } from './webhook-service.config.js';
import { startWebhookService } from './start-webhook-service.js';

runServiceMain(() => startWebhookService(loadWebhookServiceConfig()));
