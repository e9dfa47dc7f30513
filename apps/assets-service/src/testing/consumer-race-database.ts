import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@cpc/contracts';
import { createServiceDataSource, migrateServiceSchema } from '@cpc/database';
import type { DeliveredEvent } from '@cpc/nats';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { assetsDataSourceOptions } from '../data-source.js';

/**
 * For race specs of assets-service's event consumers, whose handlers they call directly: a migrated database of its
 * own (a pool large enough for two handlers, a session holding locks and the lock-wait polls) with one location of
 * one tenant, controllers (with plugs on connectors 1 and 2) made on demand, and events as JetStream delivers them.
 */
export interface ConsumerRaceDatabase {
  database: TestDatabase;
  dataSource: DataSource;
  tenantUuid: string;
  locationUuid: string;
  /** New controllers of `tenantUuid` (or another tenant's, at a location of their own), in uuid order. */
  createControllers(count: number, tenantUuid?: string): Promise<string[]>;
  /** A delivered charge-point event about `controllerUuid`, `seconds` after a fixed instant. */
  delivered(
    subject: string,
    controllerUuid: string,
    seconds: number,
    data?: Record<string, unknown>,
    envelope?: Partial<EventEnvelope<unknown>>,
  ): DeliveredEvent;
  /** The live state of a controller, instants as PostgreSQL's text in UTC. */
  controllerState(uuid: string): Promise<Record<string, unknown>>;
  drop(): Promise<void>;
}

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
let streamSequence = 0;

export async function createConsumerRaceDatabase(): Promise<ConsumerRaceDatabase> {
  const database = await createTestDatabase();
  const dataSource = createServiceDataSource({ ...assetsDataSourceOptions(database.url), poolSize: 8 });
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  const tenantUuid = randomUUID();
  const locations = new Map<string, string>();
  const locationOf = async (tenant: string): Promise<string> => {
    let location = locations.get(tenant);
    if (!location) {
      location = randomUUID();
      await dataSource.query(
        `INSERT INTO assets.locations (uuid, tenant_uuid, name, status, modification_date)
           VALUES ($1, $2, 'Depot', 'active', now())`,
        [location, tenant],
      );
      locations.set(tenant, location);
    }
    return location;
  };
  const locationUuid = await locationOf(tenantUuid);
  return {
    database,
    dataSource,
    tenantUuid,
    locationUuid,
    createControllers: async (count, tenant = tenantUuid) => {
      const uuids = Array.from({ length: count }, () => randomUUID()).sort();
      await dataSource.query(
        `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
         SELECT u, $2, $3, 'CP', 'CP-' || u, 0 FROM unnest($1::uuid[]) AS u`,
        [uuids, tenant, await locationOf(tenant)],
      );
      await dataSource.query(
        `INSERT INTO assets.plugs (uuid, tenant_uuid, controller_uuid, connector_id, evse_id, standard, power_type,
                                   max_power_kw)
         SELECT gen_random_uuid(), $2, u, c, c, 'iec_62196_t2', 'ac_3_phase', 22
           FROM unnest($1::uuid[]) AS u, generate_series(1, 2) AS c`,
        [uuids, tenant],
      );
      return uuids;
    },
    delivered: (subject, controllerUuid, seconds, data = {}, envelope = {}) => {
      streamSequence += 1;
      return {
        subject,
        event: {
          eventId: randomUUID(),
          occurredAt: new Date(T0 + seconds * 1000).toISOString(),
          tenantUuid,
          data: { controllerUuid, ocppIdentity: `CP-${controllerUuid}`, ...data },
          ...envelope,
        },
        position: { streamSequence, deliveryCount: 1 },
      };
    },
    controllerState: async (uuid) => {
      const [row] = await dataSource.query<Record<string, unknown>[]>(
        `SELECT connection_status, connection_id, (connection_changed_at AT TIME ZONE 'UTC')::text AS changed_at,
                (last_seen_at AT TIME ZONE 'UTC')::text AS last_seen_at, firmware_status
           FROM assets.controllers WHERE uuid = $1`,
        [uuid],
      );
      return row;
    },
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
