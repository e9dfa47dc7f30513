import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, readDatabaseUrl } from '@cpc/config';

export interface AuthServiceConfig extends CommonServiceConfig {
  databaseUrl: string;
  jwtIssuer: string;
  jwtAudience: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Encrypts signing private keys at rest (AES-256-GCM); required in production. */
  signingKeyEncryptionSecret: string;
}

const DEVELOPMENT_ENCRYPTION_SECRET = 'development-only-signing-key-secret-change-me';

export function loadAuthServiceConfig(env: NodeJS.ProcessEnv = process.env): AuthServiceConfig {
  return loadConfig(
    'auth-service',
    (reader) => {
      const common = readCommonServiceConfig(reader, 3101);
      const production = common.nodeEnv === 'production';
      return {
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
      };
    },
    env,
  );
}
