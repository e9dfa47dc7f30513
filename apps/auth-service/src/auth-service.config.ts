import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, readDatabaseUrl } from '@cpc/config';

/** auth-service's fixed numbers (caches, page sizes, sweeps): not read from the environment. */
export interface AuthServiceTuning {
  /** Connections of the service's pool: token grants, limit counters and admin changes share it. */
  databasePoolSize: number;
  /**
   * How long the active signing key is reused before it is read again, so a rotation by another process is picked up.
   */
  activeSigningKeyCacheMs: number;
  /** How long past one token lifetime a retired key still verifies tokens, for clocks a little apart. */
  retiredSigningKeyGraceSeconds: number;
  /** Revocations per page of auth.revocations.list.v1: about 80 bytes each, far below NATS's 1 MB message limit. */
  revocationsPageSize: number;
  /** Longest time between two sweeps of expired token limit counters (shorter when the rate limit window is). */
  tokenLimitSweepMaxIntervalSeconds: number;
}

/** The tuning every instance runs with. */
export const AUTH_SERVICE_TUNING: Readonly<AuthServiceTuning> = Object.freeze({
  databasePoolSize: 10,
  activeSigningKeyCacheMs: 30_000,
  retiredSigningKeyGraceSeconds: 60,
  revocationsPageSize: 1000,
  tokenLimitSweepMaxIntervalSeconds: 300,
});

export interface AuthServiceConfig extends CommonServiceConfig {
  databaseUrl: string;
  jwtIssuer: string;
  jwtAudience: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Encrypts signing private keys at rest (AES-256-GCM); required in production. */
  signingKeyEncryptionSecret: string;
  /** scrypt cost of new password and API-key hashes as log2(N), with r=8, p=1: 17 means N=2^17, 128 MiB per hash. */
  scryptCostLog2: number;
  /** How many scrypt computations run at once in this process (each holds 128·N·r bytes while it runs). */
  scryptMaxConcurrent: number;
  /** How many more may wait for one of those; beyond that a login or hash is refused with 503 at once. */
  scryptMaxWaiting: number;
  /** Token requests (both grants) one client address may make per window, across all replicas. */
  tokenRateLimitPerAddress: number;
  /** Length of the window of tokenRateLimitPerAddress, in seconds. */
  tokenRateLimitWindowSeconds: number;
  /** Failed logins one client address may make against one account per failure window. */
  tokenFailureLimitPerAccountAddress: number;
  /** Failed logins against one account from all addresses together per failure window (the higher threshold). */
  tokenFailureLimitPerAccount: number;
  /** Length of the failure window, in seconds. */
  tokenFailureWindowSeconds: number;
  /** Days an address that logged in to an account is exempt from that account's per-account threshold (0: never). */
  tokenKnownAddressDays: number;
  tuning: Readonly<AuthServiceTuning>;
}

const DEVELOPMENT_ENCRYPTION_SECRET = 'development-only-signing-key-secret-change-me';
/** OWASP's scrypt recommendation (N=2^17, r=8, p=1); production never goes below it. */
export const DEFAULT_SCRYPT_COST_LOG2 = 17;

export function loadAuthServiceConfig(env: NodeJS.ProcessEnv = process.env): AuthServiceConfig {
  return loadConfig(
    'auth-service',
    (reader) => {
      const common = readCommonServiceConfig(reader, 3101);
      const production = common.nodeEnv === 'production';
      const config: AuthServiceConfig = {
        ...common,
        databaseUrl: readDatabaseUrl(reader),
        jwtIssuer: reader.string('JWT_ISSUER', { default: 'charging-platform-core' }),
        jwtAudience: reader.string('JWT_AUDIENCE', { default: 'charging-platform-core-api' }),
        accessTokenTtlSeconds: reader.int('ACCESS_TOKEN_TTL_SECONDS', { default: 3600, min: 60, max: 86400 }),
        refreshTokenTtlSeconds: reader.int('REFRESH_TOKEN_TTL_SECONDS', {
          default: 30 * 86400,
          min: 300,
          max: 365 * 86400,
        }),
        signingKeyEncryptionSecret: reader.string('SIGNING_KEY_ENCRYPTION_SECRET', {
          default: production ? undefined : DEVELOPMENT_ENCRYPTION_SECRET,
          minLength: 32,
        }),
        scryptCostLog2: reader.int('SCRYPT_COST_LOG2', {
          default: DEFAULT_SCRYPT_COST_LOG2,
          min: production ? DEFAULT_SCRYPT_COST_LOG2 : 10,
          max: 20,
        }),
        scryptMaxConcurrent: reader.int('SCRYPT_MAX_CONCURRENT', { default: 2, min: 1, max: 64 }),
        scryptMaxWaiting: reader.int('SCRYPT_MAX_WAITING', { default: 32, min: 0, max: 10_000 }),
        tokenRateLimitPerAddress: reader.int('TOKEN_RATE_LIMIT_PER_ADDRESS', { default: 60, min: 1 }),
        tokenRateLimitWindowSeconds: reader.int('TOKEN_RATE_LIMIT_WINDOW_SECONDS', {
          default: 60,
          min: 1,
          max: 86400,
        }),
        tokenFailureLimitPerAccountAddress: reader.int('TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS', {
          default: 10,
          min: 1,
        }),
        tokenFailureLimitPerAccount: reader.int('TOKEN_FAILURE_LIMIT_PER_ACCOUNT', { default: 100, min: 1 }),
        tokenFailureWindowSeconds: reader.int('TOKEN_FAILURE_WINDOW_SECONDS', {
          default: 900,
          min: 1,
          max: 86400,
        }),
        tokenKnownAddressDays: reader.int('TOKEN_KNOWN_ADDRESS_DAYS', { default: 30, min: 0, max: 365 }),
        tuning: AUTH_SERVICE_TUNING,
      };
      if (config.tokenFailureLimitPerAccount < config.tokenFailureLimitPerAccountAddress) {
        reader.problems.push(
          'TOKEN_FAILURE_LIMIT_PER_ACCOUNT must not be below TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS',
        );
      }
      return config;
    },
    env,
  );
}
