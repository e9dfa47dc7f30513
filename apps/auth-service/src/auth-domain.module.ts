import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminChanges } from './admin/admin-changes.service.js';
import { ApiKeyEntity } from './api-keys/api-key.entity.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { AuditLog } from './audit/audit-log.service.js';
import { AUTH_CONFIG } from './auth-config.token.js';
import type { AuthServiceConfig } from './auth-service.config.js';
import { AccountAuthenticator } from './credentials/account-authenticator.service.js';
import { SecretHasher } from './credentials/secret-hasher.js';
import { TokenLimits } from './credentials/token-limits.js';
import { RoleEntity } from './roles/role.entity.js';
import { RolesService } from './roles/roles.service.js';
import { SigningKeyEntity } from './signing-keys/signing-key.entity.js';
import { SigningKeysService } from './signing-keys/signing-keys.service.js';
import { TenantEntity } from './tenants/tenant.entity.js';
import { TenantsService } from './tenants/tenants.service.js';
import { AccessTokenSigner } from './tokens/access-token-signer.service.js';
import { AccountRevocationPublisher } from './tokens/account-revocation-publisher.js';
import { AccountRevocationsService } from './tokens/account-revocations.service.js';
import { RefreshTokenEntity } from './tokens/refresh-token.entity.js';
import { RefreshTokensService } from './tokens/refresh-tokens.service.js';
import { TokenGrantsService } from './tokens/token-grants.service.js';
import { UserEntity } from './users/user.entity.js';
import { UsersService } from './users/users.service.js';

const DOMAIN_SERVICES = [
  SecretHasher,
  TokenLimits,
  TenantsService,
  AuditLog,
  AdminChanges,
  RolesService,
  UsersService,
  ApiKeysService,
  SigningKeysService,
  AccountAuthenticator,
  AccessTokenSigner,
  RefreshTokensService,
  AccountRevocationsService,
  TokenGrantsService,
];

const UNANNOUNCED_REVOCATIONS: Provider = {
  provide: AccountRevocationPublisher,
  useValue: { publish: () => Promise.resolve() },
};

/**
 * Everything auth knows, without transport: the running service adds NATS handlers on top, the admin CLI uses it
 * directly. `changePublisher` says how key changes are announced in each, `revocationPublisher` how revocations are
 * (without one, api-gateways learn them from their next poll only).
 */
@Module({})
export class AuthDomainModule {
  static register(
    config: AuthServiceConfig,
    changePublisher: Provider,
    revocationPublisher: Provider = UNANNOUNCED_REVOCATIONS,
  ): DynamicModule {
    return {
      module: AuthDomainModule,
      imports: [
        TypeOrmModule.forFeature([
          TenantEntity,
          RoleEntity,
          UserEntity,
          ApiKeyEntity,
          SigningKeyEntity,
          RefreshTokenEntity,
        ]),
      ],
      providers: [
        { provide: AUTH_CONFIG, useValue: config },
        changePublisher,
        revocationPublisher,
        ...DOMAIN_SERVICES,
      ],
      exports: [AUTH_CONFIG, ...DOMAIN_SERVICES],
    };
  }
}
