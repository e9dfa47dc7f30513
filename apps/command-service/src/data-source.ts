import { createServiceDataSource, type ServiceDataSourceOptions } from '@cpc/database';
import type { DataSource } from 'typeorm';
import { ChargingSessionEntity } from './charging-sessions/charging-session.entity.js';
import { CONTROL_SCHEMA } from './command-service.config.js';
import { CreateChargingSessions1763760000000 } from './migrations/1763760000000-create-charging-sessions.js';
import { CreateCommands1763780000000 } from './migrations/1763780000000-create-commands.js';
import { CreateCommandCounts1763790000000 } from './migrations/1763790000000-create-command-counts.js';
import { AddCommandDeliveryUnconfirmed1763800000000 } from './migrations/1763800000000-add-command-delivery-unconfirmed.js';
import { ShardCommandCounts1763815000000 } from './migrations/1763815000000-shard-command-counts.js';
import { MoveCommandCountsFunction1763830000000 } from './migrations/1763830000000-move-command-counts-function.js';
import { AddCommandsOpenLaneDueIndex1763840000000 } from './migrations/1763840000000-add-commands-open-lane-due-index.js';
import { DropCommandsOpenDueIndex1763850000000 } from './migrations/1763850000000-drop-commands-open-due-index.js';
import { ClaimIndexesForBacklogs1763860000000 } from './migrations/1763860000000-claim-indexes-for-backlogs.js';
import { LaneFreeFunction1763870000000 } from './migrations/1763870000000-lane-free-function.js';
import { OneActiveSessionPerPlug1763885000000 } from './migrations/1763885000000-one-active-session-per-plug.js';
import { CreateMeterValues1763886000000 } from './migrations/1763886000000-create-meter-values.js';
import { AddCommandResponse1763887000000 } from './migrations/1763887000000-add-command-response.js';
import { CreateReservations1763888000000 } from './migrations/1763888000000-create-reservations.js';
import { AddCommandTraceparent1763889000000 } from './migrations/1763889000000-add-command-traceparent.js';
import { AddChargingSessionsListIndex1763890000000 } from './migrations/1763890000000-add-charging-sessions-list-index.js';
import { CreateReservationEarlyUses1763895000000 } from './migrations/1763895000000-create-reservation-early-uses.js';
import { LaneHandoverFunction1763896000000 } from './migrations/1763896000000-lane-handover-function.js';
import { CountExitsInOwnSlots1763897000000 } from './migrations/1763897000000-count-exits-in-own-slots.js';
import { OneLaneFunction1763898000000 } from './migrations/1763898000000-one-lane-function.js';
import { CountSlotsPerStatement1763899000000 } from './migrations/1763899000000-count-slots-per-statement.js';
import { CreateReservationEarlyEnds1763900000000 } from './migrations/1763900000000-create-reservation-early-ends.js';
import { ChargingSessionsPerTransactionStart1763910000000 } from './migrations/1763910000000-charging-sessions-per-transaction-start.js';

/** Every entity of the control schema. */
export const CONTROL_ENTITIES = [ChargingSessionEntity];

/** Every migration of the control schema, in order; listed explicitly, never globbed. */
export const CONTROL_MIGRATIONS = [
  CreateChargingSessions1763760000000,
  CreateCommands1763780000000,
  CreateCommandCounts1763790000000,
  AddCommandDeliveryUnconfirmed1763800000000,
  ShardCommandCounts1763815000000,
  MoveCommandCountsFunction1763830000000,
  AddCommandsOpenLaneDueIndex1763840000000,
  DropCommandsOpenDueIndex1763850000000,
  ClaimIndexesForBacklogs1763860000000,
  LaneFreeFunction1763870000000,
  OneActiveSessionPerPlug1763885000000,
  CreateMeterValues1763886000000,
  AddCommandResponse1763887000000,
  CreateReservations1763888000000,
  AddCommandTraceparent1763889000000,
  AddChargingSessionsListIndex1763890000000,
  CreateReservationEarlyUses1763895000000,
  LaneHandoverFunction1763896000000,
  CountExitsInOwnSlots1763897000000,
  OneLaneFunction1763898000000,
  CountSlotsPerStatement1763899000000,
  CreateReservationEarlyEnds1763900000000,
  ChargingSessionsPerTransactionStart1763910000000,
];

export function controlDataSourceOptions(databaseUrl: string): ServiceDataSourceOptions {
  return {
    url: databaseUrl,
    schema: CONTROL_SCHEMA,
    entities: CONTROL_ENTITIES,
    migrations: CONTROL_MIGRATIONS,
  };
}

export function createControlDataSource(databaseUrl: string): DataSource {
  return createServiceDataSource(controlDataSourceOptions(databaseUrl));
}
