import type { EnvReader } from './env-reader.js';
import { type NatsCredentials, readNatsCredentials } from './nats-settings.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Settings every service reads. */
export interface CommonServiceConfig {
  nodeEnv: 'development' | 'production' | 'test';
  natsUrl: string;
  /** The service's NATS user (NATS_USER, NATS_PASSWORD); undefined against a broker without authentication. */
  natsCredentials: NatsCredentials | undefined;
  logLevel: LogLevel;
  /** HTTP port of the service's health and metrics endpoints (0 = any free port). */
  healthPort: number;
  /** How long a NATS request waits for a reply before the caller gets service_unavailable. */
  natsRequestTimeoutMs: number;
}

export function readCommonServiceConfig(env: EnvReader, defaultHealthPort: number): CommonServiceConfig {
  return {
    nodeEnv: env.oneOf('NODE_ENV', ['development', 'production', 'test'] as const, {
      default: 'development',
    }),
    natsUrl: env.url('NATS_URL', ['nats', 'tls'], { default: 'nats://127.0.0.1:4222' }),
    natsCredentials: readNatsCredentials(env),
    logLevel: env.oneOf('LOG_LEVEL', LOG_LEVELS, { default: 'info' }),
    healthPort: env.int('HEALTH_PORT', { default: defaultHealthPort, min: 0, max: 65535 }),
    natsRequestTimeoutMs: env.int('NATS_REQUEST_TIMEOUT_MS', { default: 5000, min: 100, max: 120000 }),
  };
}

export function readDatabaseUrl(env: EnvReader): string {
  return env.url('DATABASE_URL', ['postgres', 'postgresql'], {
    default: 'postgres://postgres@127.0.0.1:5432/cpc',
  });
}
