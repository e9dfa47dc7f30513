import { createServiceDataSource, type ServiceDataSourceOptions } from '@cpc/database';
import type { DataSource } from 'typeorm';
import { ASSETS_SCHEMA } from './assets-service.config.js';
import { ASSETS_ENTITIES } from './entities/index.js';
import { CreateAssetsSchema1763740800000 } from './migrations/1763740800000-create-assets-schema.js';
import { AddControllerCredentialsVersion1795643100000 } from './migrations/1795643100000-add-controller-credentials-version.js';
import { CreateChargePointHandshakeFailures1795643200000 } from './migrations/1795643200000-create-charge-point-handshake-failures.js';
import { CreateControllerEvents1795643900000 } from './migrations/1795643900000-create-controller-events.js';
import { CreateControllerConfiguration1795644000000 } from './migrations/1795644000000-create-controller-configuration.js';
import { CreateIdTokens1795700000000 } from './migrations/1795700000000-create-id-tokens.js';
import { CreateAuthorizationDecisions1795700200000 } from './migrations/1795700200000-create-authorization-decisions.js';
import { CreateLocalLists1795700400000 } from './migrations/1795700400000-create-local-lists.js';
import { CreateNewestFirstAssetIndexes1795700600000 } from './migrations/1795700600000-create-newest-first-asset-indexes.js';
import { UnloggedHandshakeFailures1795700800000 } from './migrations/1795700800000-unlogged-handshake-failures.js';
import { LocalListUpdateParts1795701000000 } from './migrations/1795701000000-local-list-update-parts.js';
import { RoomForLiveStateUpdates1795701200000 } from './migrations/1795701200000-room-for-live-state-updates.js';
import { ConnectionOrderByConnection1795701400000 } from './migrations/1795701400000-connection-order-by-connection.js';
import { RememberDisconnectsByConnection1795701600000 } from './migrations/1795701600000-remember-disconnects-by-connection.js';

/** Every migration of the assets schema, in order; listed explicitly, never globbed. */
export const ASSETS_MIGRATIONS = [
  CreateAssetsSchema1763740800000,
  AddControllerCredentialsVersion1795643100000,
  CreateChargePointHandshakeFailures1795643200000,
  CreateControllerEvents1795643900000,
  CreateControllerConfiguration1795644000000,
  CreateIdTokens1795700000000,
  CreateAuthorizationDecisions1795700200000,
  CreateLocalLists1795700400000,
  CreateNewestFirstAssetIndexes1795700600000,
  UnloggedHandshakeFailures1795700800000,
  LocalListUpdateParts1795701000000,
  RoomForLiveStateUpdates1795701200000,
  ConnectionOrderByConnection1795701400000,
  RememberDisconnectsByConnection1795701600000,
];

export function assetsDataSourceOptions(databaseUrl: string): ServiceDataSourceOptions {
  return {
    url: databaseUrl,
    schema: ASSETS_SCHEMA,
    entities: ASSETS_ENTITIES,
    migrations: ASSETS_MIGRATIONS,
  };
}

export function createAssetsDataSource(databaseUrl: string): DataSource {
  return createServiceDataSource(assetsDataSourceOptions(databaseUrl));
}
