import { randomUUID } from 'node:crypto';
import { runStatement } from '@cpc/database';
import type { DataSource, EntityManager } from 'typeorm';
import { type AssetsFleetDatabase, createAssetsFleetDatabase } from '../testing/assets-fleet-database.js';
import { writeControllerStates, writePlugStates } from './charge-point-state.repository.js';

/**
 * The live state rewrites a controller's or a plug's row for every charge point event. A rewrite that leaves the
 * indexed columns alone must stay on its page as a heap-only tuple (no new entry in any index), which needs room on
 * the page: the tables keep a fifth of each page free. Counted with PostgreSQL's per-transaction statistics for a
 * batch as the consumer writes one: a tenth of the fleet, spread over all pages. (Later batches find room again once
 * PostgreSQL prunes the rows they replaced, which depends on the other transactions of the server: not tested.)
 */

const FLEET = 1_000;

let fleet: AssetsFleetDatabase;
let dataSource: DataSource;
let tenant: string;
let controllers: string[];
let plugs: string[];

beforeAll(async () => {
  fleet = await createAssetsFleetDatabase(FLEET);
  ({ dataSource, tenantUuid: tenant } = fleet);
  controllers = fleet.controllers.filter((_uuid, index) => index % 10 === 0);
  const plugRows = await dataSource.query<{ uuid: string }[]>(
    `INSERT INTO assets.plugs (uuid, tenant_uuid, controller_uuid, connector_id, evse_id, standard, power_type, max_power_kw)
     SELECT gen_random_uuid(), $1, u, 1, 1, 'iec_62196_t2', 'ac_3_phase', 22 FROM unnest($2::uuid[]) AS u
     RETURNING uuid`,
    [tenant, fleet.controllers],
  );
  plugs = plugRows.map((row) => row.uuid).filter((_uuid, index) => index % 10 === 0);
});

afterAll(async () => {
  await fleet?.drop();
});

async function hotUpdatesSoFar(manager: EntityManager, table: string): Promise<number> {
  const [{ hot }] = await manager.query<{ hot: number }[]>(
    `SELECT pg_stat_get_xact_tuples_hot_updated('assets.${table}'::regclass)::integer AS hot`,
  );
  return hot;
}

/** The heap-only updates of one transaction that runs `write`. */
function heapOnlyUpdatesOf(
  table: 'controllers' | 'plugs',
  write: (manager: EntityManager) => Promise<unknown>,
): Promise<number> {
  return dataSource.transaction(async (manager) => {
    // The count is the backend's since its statistics were last reported, not the transaction's alone.
    const before = await hotUpdatesSoFar(manager, table);
    await write(manager);
    return (await hotUpdatesSoFar(manager, table)) - before;
  });
}

describe('the live state rewrites rows in place', () => {
  it('a controller reconnecting and booting again touches no index', async () => {
    const now = new Date();
    const hot = await heapOnlyUpdatesOf('controllers', (manager) =>
      runStatement(manager, writeControllerStates, {
        tenantUuids: controllers.map(() => tenant),
        uuids: controllers,
        connectionStatuses: controllers.map(() => 'offline'),
        connectionIds: controllers.map(() => randomUUID()),
        connectionChangedAts: controllers.map(() => now),
        connectionOpenedAts: controllers.map(() => now),
        connectionOpenedSequences: controllers.map((_, index) => index + 1),
        connectionClosedIds: controllers.map(() => randomUUID()),
        connectionClosedAts: controllers.map(() => now),
        connectionClosedSequences: controllers.map((_, index) => index + 2),
        // Only disconnects handled before their connects leave more than one remembered: rare.
        connectionClosedEarliers: controllers.map(() => null),
        ocppProtocols: controllers.map(() => 'ocpp1.6'),
        lastSeenAts: controllers.map(() => now),
        vendors: controllers.map(() => 'Vendor'),
        models: controllers.map(() => 'Model'),
        serialNumbers: controllers.map(() => null),
        firmwareVersions: controllers.map(() => '1.0.0'),
        bootedAts: controllers.map(() => now),
        bootedSequences: controllers.map((_, index) => index + 3),
      }),
    );
    expect(hot).toBe(FLEET / 10);
  });

  it('a plug reporting its status again touches no index', async () => {
    const hot = await heapOnlyUpdatesOf('plugs', (manager) =>
      runStatement(manager, writePlugStates, {
        uuids: plugs,
        statuses: plugs.map(() => 'unknown'),
        errorCodes: plugs.map(() => null),
        statusUpdatedAts: plugs.map(() => new Date()),
        statusUpdatedSequences: plugs.map((_, index) => index + 1),
      }),
    );
    expect(hot).toBe(FLEET / 10);
  });
});
