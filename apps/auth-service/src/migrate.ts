import { ensureDatabaseExists, migrateServiceSchema } from '@cpc/database';
import { runServiceMain } from '@cpc/service-runtime';
import { createAuthDataSource } from './auth-data-source.js';
import { loadAuthServiceConfig } from './auth-service.config.js';

runServiceMain(async () => {
  const config = loadAuthServiceConfig();
  await ensureDatabaseExists(config.databaseUrl);
  const applied = await migrateServiceSchema(createAuthDataSource(config.databaseUrl));
  process.stdout.write(`${JSON.stringify({ service: 'auth-service', migrationsApplied: applied })}\n`);
});
