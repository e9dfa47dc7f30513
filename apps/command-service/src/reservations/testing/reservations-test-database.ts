import { randomUUID } from 'node:crypto';
import { createServiceDataSource, migrateServiceSchema } from '@cpc/database';
import { createTestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { controlDataSourceOptions } from '../../data-source.js';
import { ReservationsService } from '../reservations.service.js';

/** A test database of its own with the control schema migrated, and ReservationsService on it. */
export interface ReservationsTestDatabase {
  dataSource: DataSource;
  reservations: ReservationsService;
  /** Closes the DataSource and drops the database. */
  drop(): Promise<void>;
}

export async function createReservationsTestDatabase(): Promise<ReservationsTestDatabase> {
  const database = await createTestDatabase();
  const dataSource = createServiceDataSource({ ...controlDataSourceOptions(database.url), poolSize: 4 });
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  return {
    dataSource,
    reservations: new ReservationsService(dataSource),
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

/** The charge point a reservation is made on: a tenant and a controller no other test uses. */
export interface ChargePoint {
  tenantUuid: string;
  controllerUuid: string;
}

export const chargePoint = (): ChargePoint => ({ tenantUuid: randomUUID(), controllerUuid: randomUUID() });
