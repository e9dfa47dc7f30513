import 'reflect-metadata';
import { ensureDatabaseExists, migrateServiceSchema } from '@cpc/database';
import { runServiceMain } from '@cpc/service-runtime';
import { COMMAND_SERVICE_NAME, loadCommandServiceConfig } from './command-service.config.js';
import { createControlDataSource } from './data-source.js';

/** Applies the control schema's pending migrations and exits 0 (a Job before the service starts). */
runServiceMain(async () => {
  const config = loadCommandServiceConfig();
  await ensureDatabaseExists(config.databaseUrl);
  const applied = await migrateServiceSchema(createControlDataSource(config.databaseUrl));
  process.stdout.write(`${JSON.stringify({ service: COMMAND_SERVICE_NAME, migrationsApplied: applied })}\n`);
  process.exit(0);
});
