import { migrateServiceSchema } from '@cpc/database';
import { ServiceTestRig } from '@cpc/testing';
import { loadAssetsServiceConfig } from '../assets-service.config.js';
import { createAssetsDataSource } from '../data-source.js';
import { startAssetsService } from '../start-assets-service.js';

/**
 * assets-service in-process on a private NATS server and a fresh, migrated database (ServiceTestRig), with `settings`
 * over the defaults of a test (no health port, warnings and worse logged).
 */
export function startAssetsServiceRig(settings: Record<string, string> = {}): Promise<ServiceTestRig> {
  return ServiceTestRig.start({
    migrate: (databaseUrl) => migrateServiceSchema(createAssetsDataSource(databaseUrl)),
    start: ({ natsUrl, databaseUrl }) =>
      startAssetsService(
        loadAssetsServiceConfig({
          NATS_URL: natsUrl,
          DATABASE_URL: databaseUrl,
          HEALTH_PORT: '0',
          LOG_LEVEL: 'warn',
          ...settings,
        }),
      ),
  });
}
