import 'reflect-metadata';
import { ensureDatabaseExists, migrateServiceSchema } from '@cpc/database';
import { runServiceMain } from '@cpc/service-runtime';
import { loadWebhookServiceConfig } from './webhook-service.config.js';
import { createWebhooksDataSource } from './data-source.js';

/** Applies the webhooks schema's pending migrations and exits 0 (a Job before the service starts). */
runServiceMain(async () => {
  const config = loadWebhookServiceConfig();
  await ensureDatabaseExists(config.databaseUrl);
  const applied = await migrateServiceSchema(createWebhooksDataSource(config.databaseUrl));
  process.stdout.write(`${JSON.stringify({ service: 'webhook-service', migrationsApplied: applied })}\n`);
  process.exit(0);
});
