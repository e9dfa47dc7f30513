import type { EnvReader } from '@cpc/config';

/** How charge point handshakes are checked (part of AssetsServiceConfig). */
export interface ChargePointAuthenticationConfig {
  /** Failed handshakes allowed per identity from one address within the window; then rate_limited (429). */
  maxFailuresPerAddress: number;
  /** Failed handshakes allowed per identity from all addresses together within the window (higher, see docs). */
  maxFailuresPerIdentity: number;
  /** Length of the fixed window the failures are counted in, from the first failure on. */
  failureWindowMs: number;
  /** scrypt's N = 2^this for OCPP passwords (17 by default; tests lower it). */
  scryptLog2N: number;
  /** Password checks (scrypt runs, ~128 MiB each at the default cost) running at once. */
  maxConcurrentPasswordChecks: number;
  /** Password checks allowed to wait for one of those; beyond it service_unavailable (the gateway answers 503). */
  maxQueuedPasswordChecks: number;
  /** Controllers whose verified password is remembered (as a keyed digest) so a reconnect skips scrypt; 0: none. */
  verifiedPasswordCacheSize: number;
}

export const CHARGE_POINT_AUTHENTICATION_CONFIG = Symbol('CHARGE_POINT_AUTHENTICATION_CONFIG');

export function readChargePointAuthenticationConfig(reader: EnvReader): ChargePointAuthenticationConfig {
  const maxFailuresPerAddress = reader.int('OCPP_HANDSHAKE_MAX_FAILURES', {
    default: 10,
    min: 1,
    max: 1000000,
  });
  return {
    maxFailuresPerAddress,
    maxFailuresPerIdentity: reader.int('OCPP_HANDSHAKE_MAX_FAILURES_PER_IDENTITY', {
      default: Math.min(10 * maxFailuresPerAddress, 10000000),
      min: 1,
      max: 10000000,
    }),
    failureWindowMs: reader.int('OCPP_HANDSHAKE_FAILURE_WINDOW_MS', {
      default: 300000,
      min: 1000,
      max: 86400000,
    }),
    scryptLog2N: reader.int('OCPP_PASSWORD_SCRYPT_LOG2_N', { default: 17, min: 10, max: 20 }),
    maxConcurrentPasswordChecks: reader.int('OCPP_PASSWORD_MAX_CONCURRENT_CHECKS', {
      default: 2,
      min: 1,
      max: 64,
    }),
    maxQueuedPasswordChecks: reader.int('OCPP_PASSWORD_MAX_QUEUED_CHECKS', {
      default: 16,
      min: 0,
      max: 10000,
    }),
    verifiedPasswordCacheSize: reader.int('OCPP_VERIFIED_PASSWORD_CACHE_SIZE', {
      default: 100000,
      min: 0,
      max: 10000000,
    }),
  };
}
