import pg from 'pg';
import { AssetsSubjects, type LocationView } from '@cpc/contracts';
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

/** A rig (errors logged only), a plain client on its database and a location of `tenantUuid` for controllers. */
export async function startAssetsServiceRigWithLocation(
  tenantUuid: string,
): Promise<{ rig: ServiceTestRig; db: pg.Client; locationUuid: string }> {
  const rig = await startAssetsServiceRig({ LOG_LEVEL: 'error' });
  const db = new pg.Client({ connectionString: rig.database.url });
  await db.connect();
  await db.query(`SET TIME ZONE 'UTC'`);
  const location = await rig.call<LocationView>(AssetsSubjects.createLocation, { name: 'Depot' }, tenantUuid);
  return { rig, db, locationUuid: location.uuid };
}
