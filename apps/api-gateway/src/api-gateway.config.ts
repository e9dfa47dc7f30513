import {
  type CommonServiceConfig,
  ConfigError,
  type EnvReader,
  loadConfig,
  readCommonServiceConfig,
  TrustedProxies,
} from '@cpc/config';

/**
 * api-gateway's fixed numbers (caches, retries, how long a refused upload may linger): not read from the environment.
 */
export interface ApiGatewayTuning {
  /** Signing keys are fetched again at least this often, so retired keys age out even if a change event was missed. */
  signingKeysMaxAgeMs: number;
  /**
   * Verified access tokens remembered: enough for every token in use at a busy gateway; a full cache only means more
   * signature checks.
   */
  verifiedTokenCacheSize: number;
  /**
   * Each revocation poll re-reads this much before the previous one's database time, so a revocation whose
   * transaction started earlier but committed after that poll is not skipped.
   */
  revocationPollOverlapMs: number;
  /** While the revocation list is stale, a request triggers a sync attempt at most this often. */
  revocationStaleRetryMs: number;
  /** How long start-up waits for the first read of the revocations; after it the gateway starts and fails closed. */
  revocationFirstSyncWaitMs: number;
  /** Spacing of start-up's attempts to read the revocations. */
  revocationFirstSyncRetryMs: number;
  /**
   * A refused request's lingering close ends when the client sends nothing for this long: an uploading client sends
   * more often.
   */
  lingerIdleMs: number;
  /** A refused request holds its socket no longer than this, however its client trickles. */
  lingerTotalMs: number;
  /**
   * Bytes of a refused upload read and dropped at most: several times the 1 MiB body limit; a client sending more is
   * not listening.
   */
  lingerMaxBytes: number;
  /**
   * A replica leases at least 1/this of what is left of a subject's window from the shared budget: 8 makes a busy
   * subject cost a few dozen writes per window, while a replica never holds more than an eighth of the rest unused.
   */
  rateLimitLeaseShare: number;
  /** Compare-and-set tries of one lease; past them (replicas contending for one subject) the replica counts alone. */
  rateLimitLeaseAttempts: number;
  /** How long a request waits for the shared budget's store (NATS KV) before the replica counts alone. */
  rateLimitStoreTimeoutMs: number;
  /** After the store failed, replicas count alone this long before trying it again (no request waits on it). */
  rateLimitStoreRetryMs: number;
}

/** The tuning every instance runs with. */
export const API_GATEWAY_TUNING: Readonly<ApiGatewayTuning> = Object.freeze({
  signingKeysMaxAgeMs: 5 * 60_000,
  verifiedTokenCacheSize: 10_000,
  revocationPollOverlapMs: 60_000,
  revocationStaleRetryMs: 1_000,
  revocationFirstSyncWaitMs: 10_000,
  revocationFirstSyncRetryMs: 250,
  lingerIdleMs: 2_000,
  lingerTotalMs: 5_000,
  lingerMaxBytes: 8 * 1024 * 1024,
  rateLimitLeaseShare: 8,
  rateLimitLeaseAttempts: 10,
  rateLimitStoreTimeoutMs: 1_000,
  rateLimitStoreRetryMs: 5_000,
});

export interface ApiGatewayConfig extends CommonServiceConfig {
  apiPort: number;
  jwtIssuer: string;
  jwtAudience: string;
  bodyLimitBytes: number;
  /** Largest body of an id-token import (up to 10,000 tokens), which is larger than other requests. */
  importBodyLimitBytes: number;
  /**
   * Addresses/CIDRs of proxies (the ingress) whose X-Forwarded-For is believed, so rate limits see the client; empty:
   * forwarded headers are ignored and the TCP peer is the client.
   */
  trustedProxies: string[];
  rateLimitWindowSeconds: number;
  apiRateLimitPerSubject: number;
  /** `Strict-Transport-Security` max-age on answers to HTTPS requests (as the trusted ingress reports); 0: none. */
  hstsMaxAgeSeconds: number;
  /** A token naming a key id the gateway does not know refetches the signing keys at most once per this interval. */
  unknownKidRefetchIntervalSeconds: number;
  /** How often the gateway asks auth-service for revocations it may have missed as broadcasts. */
  revocationPollIntervalSeconds: number;
  /**
   * How long the gateway trusts its revocation list without reaching auth-service; past it, every authenticated
   * request is answered 503 (fail closed). The bound on how late a revocation can take effect.
   */
  revocationMaxStalenessSeconds: number;
  tuning: Readonly<ApiGatewayTuning>;
}

export const API_GATEWAY_CONFIG = Symbol('API_GATEWAY_CONFIG');

export function loadApiGatewayConfig(env: NodeJS.ProcessEnv = process.env): ApiGatewayConfig {
  const config = loadConfig(
    'api-gateway',
    (reader) => ({
      // HEALTH_PORT: the listener of GET /metrics; the health endpoints are on API_PORT.
      ...readCommonServiceConfig(reader, 3100),
      apiPort: reader.int('API_PORT', { default: 3000, min: 0, max: 65535 }),
      jwtIssuer: reader.string('JWT_ISSUER', { default: 'charging-platform-core' }),
      jwtAudience: reader.string('JWT_AUDIENCE', { default: 'charging-platform-core-api' }),
      bodyLimitBytes: reader.int('API_BODY_LIMIT_BYTES', {
        default: 1024 * 1024,
        min: 1024,
        max: 50 * 1024 * 1024,
      }),
      importBodyLimitBytes: reader.int('API_IMPORT_BODY_LIMIT_BYTES', {
        default: 16 * 1024 * 1024,
        min: 1024,
        max: 64 * 1024 * 1024,
      }),
      trustedProxies: readTrustedProxies(reader),
      rateLimitWindowSeconds: reader.int('RATE_LIMIT_WINDOW_SECONDS', { default: 60, min: 1, max: 3600 }),
      apiRateLimitPerSubject: reader.int('API_RATE_LIMIT_PER_SUBJECT', { default: 1200, min: 1 }),
      hstsMaxAgeSeconds: reader.int('HSTS_MAX_AGE_SECONDS', { default: 365 * 86400, min: 0 }),
      unknownKidRefetchIntervalSeconds: reader.int('UNKNOWN_KID_REFETCH_INTERVAL_SECONDS', {
        default: 5,
        min: 1,
        max: 3600,
      }),
      revocationPollIntervalSeconds: reader.int('REVOCATION_POLL_INTERVAL_SECONDS', {
        default: 10,
        min: 1,
        max: 300,
      }),
      revocationMaxStalenessSeconds: reader.int('REVOCATION_MAX_STALENESS_SECONDS', {
        default: 60,
        min: 2,
        max: 3600,
      }),
      tuning: API_GATEWAY_TUNING,
    }),
    env,
  );
  if (config.revocationMaxStalenessSeconds <= config.revocationPollIntervalSeconds) {
    throw new ConfigError('api-gateway', [
      'REVOCATION_MAX_STALENESS_SECONDS must be greater than REVOCATION_POLL_INTERVAL_SECONDS',
    ]);
  }
  return config;
}

/**
 * TRUSTED_PROXIES: addresses and CIDR ranges, parsed as ocpp-gateway parses them (one format for both gateways),
 * checked at start-up and handed to Fastify's `trustProxy`.
 */
function readTrustedProxies(reader: EnvReader): string[] {
  return [...TrustedProxies.parse(reader.optionalString('TRUSTED_PROXIES'), reader.problems).entries];
}
