import { Injectable } from '@nestjs/common';
import { type EntityType, ErrorCode } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { TenantEntity } from '../tenants/tenant.entity.js';
import { TenantsService } from '../tenants/tenants.service.js';
import type { AccountKind } from '../tokens/refresh-token.entity.js';
import { UsersService } from '../users/users.service.js';
import { SecretHasher } from './secret-hasher.js';

export interface AuthenticatedAccount {
  tenant: TenantEntity;
  kind: AccountKind;
  uuid: string;
  entityType: EntityType;
  roleUuid: string;
}

/** The one answer to every credential failure: nothing tells which part was wrong. */
export class InvalidCredentialsError extends DomainError {
  constructor() {
    super(ErrorCode.InvalidCredentials, 'invalid credentials');
  }
}

/**
 * Checks a username/password pair within a tenant. Every path (unknown tenant, unknown account, disabled account,
 * wrong context, wrong uuid, wrong password) runs exactly one scrypt verification, so response time does not reveal
 * which accounts exist.
 */
@Injectable()
export class AccountAuthenticator {
  constructor(
    private readonly tenants: TenantsService,
    private readonly users: UsersService,
    private readonly apiKeys: ApiKeysService,
    private readonly hasher: SecretHasher,
  ) {}

  async authenticate(request: {
    tenant: string;
    username: string;
    password: string;
    context?: EntityType;
    uuid?: string;
  }): Promise<AuthenticatedAccount> {
    const tenant = await this.tenants.findActiveBySlug(request.tenant);
    const context = request.context ?? tenant?.defaultContext;
    const account = tenant && context ? await this.findAccount(tenant, context, request.username) : null;
    const passwordMatches = account
      ? await this.hasher.verify(request.password, account.secretHash)
      : await this.hasher.verifyAgainstDecoy(request.password);

    const usable =
      tenant !== null &&
      account !== null &&
      passwordMatches &&
      account.enabled &&
      account.entityType === context &&
      (request.uuid === undefined || request.uuid.toLowerCase() === tenant.uuid);
    if (!usable || !tenant || !account) throw new InvalidCredentialsError();
    return {
      tenant,
      kind: account.kind,
      uuid: account.uuid,
      entityType: account.entityType,
      roleUuid: account.roleUuid,
    };
  }

  /** Re-reads an account for a refresh: it must still exist and be enabled in an enabled tenant. */
  async reload(
    tenantUuid: string,
    kind: AccountKind,
    uuid: string,
  ): Promise<{ roleUuid: string; tenant: TenantEntity } | null> {
    const account =
      kind === 'apikey' ? await this.apiKeys.findByUuid(uuid) : await this.users.findByUuid(uuid);
    if (!account || account.tenantUuid !== tenantUuid) return null;
    const enabled = 'revokedAt' in account ? account.revokedAt === null : account.disabledAt === null;
    if (!enabled) return null;
    const tenant = await this.tenants.findActiveByUuid(tenantUuid);
    return tenant ? { roleUuid: account.roleUuid, tenant } : null;
  }

  private async findAccount(
    tenant: TenantEntity,
    context: EntityType,
    username: string,
  ): Promise<{
    kind: AccountKind;
    uuid: string;
    secretHash: string;
    entityType: EntityType;
    roleUuid: string;
    enabled: boolean;
  } | null> {
    if (context === 'apikey') {
      const apiKey = await this.apiKeys.findForLogin(tenant.uuid, username);
      return apiKey
        ? {
            kind: 'apikey',
            uuid: apiKey.uuid,
            secretHash: apiKey.secretHash,
            entityType: 'apikey',
            roleUuid: apiKey.roleUuid,
            enabled: apiKey.revokedAt === null,
          }
        : null;
    }
    const user = await this.users.findForLogin(tenant.uuid, username);
    return user
      ? {
          kind: 'user',
          uuid: user.uuid,
          secretHash: user.passwordHash,
          entityType: user.entityType,
          roleUuid: user.roleUuid,
          enabled: user.disabledAt === null,
        }
      : null;
  }
}
