import { type INestApplicationContext, Module, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ServiceDatabaseModule } from '@cpc/database';
import { authDataSourceOptions } from '../auth-data-source.js';
import { AuthDomainModule } from '../auth-domain.module.js';
import { loadAuthServiceConfig } from '../auth-service.config.js';
import { SigningKeyChangePublisher } from '../signing-keys/signing-key-change-publisher.js';

/**
 * auth-service's domain (no transport) as a Nest application context on `databaseUrl` (migrated by the caller), with
 * `env` on top of a test's low scrypt cost. Signing key changes are announced nowhere; `revocationPublisher` replaces
 * the default one to watch announced revocations. For integration tests of the domain services.
 */
export async function startAuthDomain(
  databaseUrl: string,
  options: { env?: NodeJS.ProcessEnv; revocationPublisher?: Provider } = {},
): Promise<INestApplicationContext> {
  const config = loadAuthServiceConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    SCRYPT_COST_LOG2: '12',
    ...options.env,
  });
  const changePublisher: Provider = {
    provide: SigningKeyChangePublisher,
    useValue: { publish: () => Promise.resolve() },
  };

  @Module({
    imports: [
      ServiceDatabaseModule.register(authDataSourceOptions(databaseUrl)),
      options.revocationPublisher
        ? AuthDomainModule.register(config, changePublisher, options.revocationPublisher)
        : AuthDomainModule.register(config, changePublisher),
    ],
  })
  class AuthDomainTestModule {}

  return NestFactory.createApplicationContext(AuthDomainTestModule, { logger: false });
}
