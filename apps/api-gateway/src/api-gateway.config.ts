import { isIP } from 'node:net';
import {
  type CommonServiceConfig,
  ConfigError,
  type EnvReader,
  loadConfig,
  readCommonServiceConfig,
} from '@cpc/config';

export interface ApiGatewayConfig extends CommonServiceConfig {
  apiPort: number;
  jwtIssuer: string;
  jwtAudience: string;
  bodyLimitBytes: number;
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

/** proxy-addr's names for address ranges, accepted besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUSTED_PROXIES: a comma-separated list of addresses, CIDRs or range names, checked at start-up. */
function readTrustedProxies(reader: EnvReader): string[] {
  const entries = (reader.optionalString('TRUSTED_PROXIES') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const prefixValid =
      prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    const valid = PROXY_RANGE_NAMES.includes(entry) || (family !== 0 && prefixValid && rest.length === 0);
    if (!valid)
      reader.problems.push(
        `TRUSTED_PROXIES: "${entry}" is not an address, a CIDR or ${PROXY_RANGE_NAMES.join('/')}`,
      );
  }
  return entries;
}
