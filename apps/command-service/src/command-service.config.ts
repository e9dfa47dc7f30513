import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, readDatabaseUrl } from '@cpc/config';

export const COMMAND_SERVICE_NAME = 'command-service';
export const CONTROL_SCHEMA = 'control';
export const DEFAULT_COMMAND_SERVICE_HEALTH_PORT = 3103;

export interface CommandServiceConfig extends CommonServiceConfig {
  databaseUrl: string;
  /** The ocpp-gateway's call timeout (same variable): how long a delivery request may take follows from it. */
  ocppCallTimeoutMs: number;
  /** How often the dispatcher looks for due commands besides being woken (other instances' commands, retries). */
  commandDispatchIntervalMs: number;
  /** How long a claimed delivery stays this instance's without being renewed (a killed instance's claims lapse). */
  commandLeaseMs: number;
  /** How often an offline charge point is tried again although no connected event came. */
  commandOfflineRecheckMs: number;
  /** How often status events that could not be published at once are retried (the outbox relay). */
  outboxRelayIntervalMs: number;
}

export function loadCommandServiceConfig(env: NodeJS.ProcessEnv = process.env): CommandServiceConfig {
  return loadConfig(
    COMMAND_SERVICE_NAME,
    (reader) => ({
      ...readCommonServiceConfig(reader, DEFAULT_COMMAND_SERVICE_HEALTH_PORT),
      databaseUrl: readDatabaseUrl(reader),
      ocppCallTimeoutMs: reader.int('OCPP_CALL_TIMEOUT_MS', { default: 30000, min: 100, max: 600000 }),
      commandDispatchIntervalMs: reader.int('COMMAND_DISPATCH_INTERVAL_MS', {
        default: 1000,
        min: 50,
        max: 60000,
      }),
      commandLeaseMs: reader.int('COMMAND_LEASE_MS', { default: 15000, min: 1000, max: 600000 }),
      commandOfflineRecheckMs: reader.int('COMMAND_OFFLINE_RECHECK_MS', {
        default: 15000,
        min: 100,
        max: 3600000,
      }),
      outboxRelayIntervalMs: reader.int('OUTBOX_RELAY_INTERVAL_MS', { default: 2000, min: 100, max: 60000 }),
    }),
    env,
  );
}
