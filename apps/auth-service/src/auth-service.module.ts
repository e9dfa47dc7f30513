import { type DynamicModule, Injectable, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { DatabaseHealthIndicator, ServiceDatabaseModule } from '@cpc/database';
import { HealthModule } from '@cpc/health';
import { NatsConnectionModule, NatsHealthIndicator } from '@cpc/nats';
import { AdminController } from './admin/admin.controller.js';
import { authDataSourceOptions } from './auth-data-source.js';
import { AuthDomainModule } from './auth-domain.module.js';
import type { AuthServiceConfig } from './auth-service.config.js';
import { TokenLimitCounterSweeper } from './credentials/token-limits.js';
import {
  NatsSigningKeyChangePublisher,
  SigningKeyChangeListener,
} from './signing-keys/nats-signing-key-change-publisher.js';
import { SigningKeyChangePublisher } from './signing-keys/signing-key-change-publisher.js';
import { SigningKeysController } from './signing-keys/signing-keys.controller.js';
import { SigningKeysService } from './signing-keys/signing-keys.service.js';
import { TenantsController } from './tenants/tenants.controller.js';
import {
  AccountRevocationPublisher,
  NatsAccountRevocationPublisher,
} from './tokens/account-revocation-publisher.js';
import { RevocationsController } from './tokens/revocations.controller.js';
import { TokenController } from './tokens/token.controller.js';

/** A new platform has no signing key; the first auth-service to start creates one. */
@Injectable()
class FirstSigningKey implements OnApplicationBootstrap {
  constructor(private readonly signingKeys: SigningKeysService) {}

  onApplicationBootstrap(): Promise<void> {
    return this.signingKeys.ensureActiveKey();
  }
}

@Module({})
export class AuthServiceModule {
  static register(config: AuthServiceConfig): DynamicModule {
    return {
      module: AuthServiceModule,
      imports: [
        ServiceDatabaseModule.register({
          ...authDataSourceOptions(config.databaseUrl),
          poolSize: config.tuning.databasePoolSize,
        }),
        NatsConnectionModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          connectionName: 'auth-service',
        }),
        AuthDomainModule.register(
          config,
          { provide: SigningKeyChangePublisher, useClass: NatsSigningKeyChangePublisher },
          { provide: AccountRevocationPublisher, useClass: NatsAccountRevocationPublisher },
        ),
        HealthModule.register([DatabaseHealthIndicator, NatsHealthIndicator]),
      ],
      controllers: [
        TokenController,
        SigningKeysController,
        TenantsController,
        RevocationsController,
        AdminController,
      ],
      providers: [FirstSigningKey, SigningKeyChangeListener, TokenLimitCounterSweeper],
    };
  }
}
