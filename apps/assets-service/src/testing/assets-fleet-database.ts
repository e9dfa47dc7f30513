import { randomUUID } from 'node:crypto';
import { migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { createAssetsDataSource } from '../data-source.js';

export interface AssetsFleetDatabase {
  database: TestDatabase;
  dataSource: DataSource;
  tenantUuid: string;
  locationUuid: string;
  /** The controllers' uuids, in the order they were written. */
  controllers: string[];
  drop(): Promise<void>;
}

/**
 * A database of its own with assets-service's schema and one tenant's fleet of `size` controllers of security
 * profile 0 at one location, analyzed: for specs of statements whose cost must not grow with the fleet.
 */
export async function createAssetsFleetDatabase(size: number): Promise<AssetsFleetDatabase> {
  const database = await createTestDatabase();
  const dataSource = createAssetsDataSource(database.url);
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  const tenantUuid = randomUUID();
  const locationUuid = randomUUID();
  await dataSource.query(
    `INSERT INTO assets.locations (uuid, tenant_uuid, name, status, modification_date)
       VALUES ($1, $2, 'Depot', 'active', now())`,
    [locationUuid, tenantUuid],
  );
  const rows = await dataSource.query<{ uuid: string }[]>(
    `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
     SELECT gen_random_uuid(), $1, $2, 'CP ' || i, 'CP-' || i, 0 FROM generate_series(1, $3::integer) AS i
     RETURNING uuid`,
    [tenantUuid, locationUuid, size],
  );
  await dataSource.query('ANALYZE assets.controllers');
  return {
    database,
    dataSource,
    tenantUuid,
    locationUuid,
    controllers: rows.map((row) => row.uuid),
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
