import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, readDatabaseUrl } from '@cpc/config';

export const COMMAND_SERVICE_NAME = 'command-service';
export const CONTROL_SCHEMA = 'control';
export const DEFAULT_COMMAND_SERVICE_HEALTH_PORT = 3103;

export interface CommandServiceConfig extends CommonServiceConfig {
  databaseUrl: string;
}

export function loadCommandServiceConfig(env: NodeJS.ProcessEnv = process.env): CommandServiceConfig {
  return loadConfig(
    COMMAND_SERVICE_NAME,
    (reader) => ({
      ...readCommonServiceConfig(reader, DEFAULT_COMMAND_SERVICE_HEALTH_PORT),
      databaseUrl: readDatabaseUrl(reader),
    }),
    env,
  );
}
