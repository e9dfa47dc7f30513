import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, readDatabaseUrl } from '@cpc/config';
import {
  type ChargePointAuthenticationConfig,
  readChargePointAuthenticationConfig,
} from './charge-points/charge-point-authentication.config.js';

export const ASSETS_SERVICE_NAME = 'assets-service';
export const ASSETS_SCHEMA = 'assets';
export const DEFAULT_ASSETS_HEALTH_PORT = 3102;

export interface AssetsServiceConfig extends CommonServiceConfig {
  databaseUrl: string;
  /** How often events that could not be published at once are retried (the outbox relay). */
  outboxRelayIntervalMs: number;
  chargePointAuthentication: ChargePointAuthenticationConfig;
}

export function loadAssetsServiceConfig(env: NodeJS.ProcessEnv = process.env): AssetsServiceConfig {
  return loadConfig(
    ASSETS_SERVICE_NAME,
    (reader) => ({
      ...readCommonServiceConfig(reader, DEFAULT_ASSETS_HEALTH_PORT),
      databaseUrl: readDatabaseUrl(reader),
      outboxRelayIntervalMs: reader.int('OUTBOX_RELAY_INTERVAL_MS', { default: 2000, min: 100, max: 60000 }),
      chargePointAuthentication: readChargePointAuthenticationConfig(reader),
    }),
    env,
  );
}
