import type { EventEnvelope, ValidationIssue } from '@cpc/contracts';
import { ValidationFailedError } from '@cpc/errors';
import { migrateServiceSchema, TransactionalOutbox } from '@cpc/database';
import type { JetStreamEventBus } from '@cpc/nats';
import { createPreparedTestDatabase, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import type { ChargePointAuthenticationConfig } from '../charge-points/charge-point-authentication.config.js';
import { OcppPasswordHasher } from '../charge-points/ocpp-password-hasher.js';
import { ControllersService } from '../controllers/controllers.service.js';
import { createAssetsDataSource } from '../data-source.js';
import { FacilityTypesService } from '../locations/facility-types.service.js';
import { LocationsService } from '../locations/locations.service.js';
import { PlugsService } from '../plugs/plugs.service.js';
import { SensorsService } from '../sensors/sensors.service.js';

/** An event the outbox handed to the (recording) event bus. */
export interface PublishedEvent {
  subject: string;
  envelope: EventEnvelope<unknown>;
}

/** The asset services on a migrated database of their own; events are recorded instead of sent to NATS. */
export interface AssetServices {
  database: TestDatabase;
  dataSource: DataSource;
  locations: LocationsService;
  facilityTypes: FacilityTypesService;
  controllers: ControllersService;
  plugs: PlugsService;
  sensors: SensorsService;
  published: PublishedEvent[];
  drop(): Promise<void>;
}

export async function createAssetServices(): Promise<AssetServices> {
  const database = await createPreparedTestDatabase('assets-services', async (url) => {
    await migrateServiceSchema(createAssetsDataSource(url));
  });
  const dataSource = createAssetsDataSource(database.url);
  await dataSource.initialize();
  const published: PublishedEvent[] = [];
  const eventBus = {
    publish: (subject: string, envelope: EventEnvelope<unknown>) => {
      published.push({ subject, envelope });
      return Promise.resolve();
    },
  } as unknown as JetStreamEventBus;
  const outbox = new TransactionalOutbox(dataSource, eventBus, {
    table: 'assets.outbox_events',
    relayIntervalMs: 60_000,
  });
  const passwords = new OcppPasswordHasher({ scryptLog2N: 10 } as ChargePointAuthenticationConfig);
  return {
    database,
    dataSource,
    locations: new LocationsService(dataSource, ASSETS_SERVICE_TUNING),
    facilityTypes: new FacilityTypesService(dataSource),
    controllers: new ControllersService(dataSource, outbox, passwords),
    plugs: new PlugsService(dataSource),
    sensors: new SensorsService(dataSource),
    published,
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

/** The first issue of a validation failure; anything else thrown fails the spec here. */
export function issueOf(error: unknown): ValidationIssue | undefined {
  if (!(error instanceof ValidationFailedError))
    throw new Error(`not a validation failure: ${String(error)}`);
  return error.issues?.[0];
}
