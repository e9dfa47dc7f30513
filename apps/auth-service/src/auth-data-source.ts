import { createServiceDataSource, type ServiceDataSourceOptions } from '@cpc/database';
import { ApiKeyEntity } from './api-keys/api-key.entity.js';
import { CreateAuthSchema1763750000000 } from './migrations/1763750000000-create-auth-schema.js';
import { AddTenantSecurityProfile0Switch1795643000000 } from './migrations/1795643000000-add-tenant-security-profile-0-switch.js';
import { CreateAccountRevocations1795643558000 } from './migrations/1795643558000-create-account-revocations.js';
import { CreateTokenLimitCounters1795644772000 } from './migrations/1795644772000-create-token-limit-counters.js';
import { CreateAuditEvents1795700000000 } from './migrations/1795700000000-create-audit-events.js';
import { AddTenantAuthorizationMode1795700100000 } from './migrations/1795700100000-add-tenant-authorization-mode.js';
import { AddTokenScopeAndApiKeyLookup1795700200000 } from './migrations/1795700200000-add-token-scope-and-api-key-lookup.js';
import { RoleEntity } from './roles/role.entity.js';
import { SigningKeyEntity } from './signing-keys/signing-key.entity.js';
import { TenantEntity } from './tenants/tenant.entity.js';
import { RefreshTokenEntity } from './tokens/refresh-token.entity.js';
import { UserEntity } from './users/user.entity.js';

export function authDataSourceOptions(url: string): ServiceDataSourceOptions {
  return {
    url,
    schema: 'auth',
    entities: [TenantEntity, RoleEntity, UserEntity, ApiKeyEntity, SigningKeyEntity, RefreshTokenEntity],
    migrations: [
      CreateAuthSchema1763750000000,
      AddTenantSecurityProfile0Switch1795643000000,
      CreateAccountRevocations1795643558000,
      CreateTokenLimitCounters1795644772000,
      CreateAuditEvents1795700000000,
      AddTenantAuthorizationMode1795700100000,
      AddTokenScopeAndApiKeyLookup1795700200000,
    ],
  };
}

export const createAuthDataSource = (url: string) => createServiceDataSource(authDataSourceOptions(url));
