import 'reflect-metadata';
import { ensureDatabaseExists, migrateServiceSchema } from '@cpc/database';
import { runServiceMain } from '@cpc/service-runtime';
import { loadAssetsServiceConfig } from './assets-service.config.js';
import { createAssetsDataSource } from './data-source.js';

/** Applies the assets schema's pending migrations and exits 0 (a Job before the service starts). */
runServiceMain(async () => {
  const config = loadAssetsServiceConfig();
  await ensureDatabaseExists(config.databaseUrl);
  const applied = await migrateServiceSchema(createAssetsDataSource(config.databaseUrl));
  process.stdout.write(`${JSON.stringify({ service: 'assets-service', migrationsApplied: applied })}\n`);
  process.exit(0);
});
