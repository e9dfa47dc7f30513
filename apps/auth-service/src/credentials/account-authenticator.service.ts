import { Injectable, Logger } from '@nestjs/common';
import { type EntityType, ErrorCode } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { DomainError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { TenantEntity } from '../tenants/tenant.entity.js';
import { TenantsService } from '../tenants/tenants.service.js';
import type { AccountKind } from '../tokens/refresh-token.entity.js';
import { UsersService } from '../users/users.service.js';
import { normalizeLoginName } from './login-name.js';
import { replaceApiKeySecretHash, replaceUserPasswordHash } from './secret-hashes.repository.js';
import { SecretHasher } from './secret-hasher.js';
import { TokenLimits } from './token-limits.js';

export interface AuthenticatedAccount {
  tenant: TenantEntity;
  kind: AccountKind;
  uuid: string;
  entityType: EntityType;
  roleUuid: string;
  /**
   * The hashes of the secret just checked that the account may hold: the one read, and its replacement when the
   * login rehashed it. The issuing transaction refuses the login when the account holds another one by then.
   */
  secretHashes: string[];
}

/** The one answer to every credential failure: nothing tells which part was wrong. */
export class InvalidCredentialsError extends DomainError {
  constructor() {
    super(ErrorCode.InvalidCredentials, 'invalid credentials');
  }
}

/** What a password login gives: the names as the client sent them, and its address (for the login limits). */
export interface LoginAttempt {
  tenant: string;
  username: string;
  password: string;
  context?: EntityType;
  clientAddress: string;
}

interface LoginAccount {
  kind: AccountKind;
  uuid: string;
  secretHash: string;
  entityType: EntityType;
  roleUuid: string;
  enabled: boolean;
}

/**
 * Checks a username/password pair within a tenant. Tenant and username are normalized once (normalizeLoginName), for
 * the lookup and for the failure counters alike. A failure slot is taken before the check (TokenLimits), so parallel
 * guesses count one each. Every path (unknown tenant, unknown account, disabled account, wrong context, wrong
 * password) runs exactly one scrypt verification with the current cost, so response time does not reveal which
 * accounts exist; a hash made with an older cost is replaced after a successful login.
 */
@Injectable()
export class AccountAuthenticator {
  private readonly logger = new Logger(AccountAuthenticator.name);

  constructor(
    private readonly tenants: TenantsService,
    private readonly users: UsersService,
    private readonly apiKeys: ApiKeysService,
    private readonly hasher: SecretHasher,
    private readonly limits: TokenLimits,
    private readonly dataSource: DataSource,
  ) {}

  async authenticate(request: LoginAttempt): Promise<AuthenticatedAccount> {
    const tenantSlug = normalizeLoginName(request.tenant);
    const username = normalizeLoginName(request.username);
    const slots = await this.limits.takeFailureSlots(tenantSlug, username, request.clientAddress);
    let checked: { tenant: TenantEntity | null; account: LoginAccount | null; passwordMatches: boolean };
    try {
      checked = await this.check(tenantSlug, username, request);
    } catch (error) {
      // The check did not run to its end (hashing at capacity, database down): the attempt does not count.
      await this.limits.giveBackFailureSlots(slots);
      throw error;
    }
    const { tenant, account, passwordMatches } = checked;
    const context = request.context ?? tenant?.defaultContext;
    const usable =
      tenant !== null &&
      account !== null &&
      passwordMatches &&
      account.enabled &&
      account.entityType === context;
    if (!usable || !tenant || !account) throw new InvalidCredentialsError();
    await this.limits.settleSuccess(slots);
    const secretHashes = [account.secretHash];
    if (this.hasher.needsRehash(account.secretHash)) {
      const replacement = await this.rehash(account, request.password);
      if (replacement !== null) secretHashes.push(replacement);
    }
    return {
      tenant,
      kind: account.kind,
      uuid: account.uuid,
      entityType: account.entityType,
      roleUuid: account.roleUuid,
      secretHashes,
    };
  }

  private async check(
    tenantSlug: string,
    username: string,
    request: LoginAttempt,
  ): Promise<{ tenant: TenantEntity | null; account: LoginAccount | null; passwordMatches: boolean }> {
    const tenant = await this.tenants.findActiveBySlug(tenantSlug);
    const context = request.context ?? tenant?.defaultContext;
    const account = tenant && context ? await this.findAccount(tenant, context, username) : null;
    const passwordMatches = account
      ? await this.hasher.verify(request.password, account.secretHash)
      : await this.hasher.verifyAgainstDecoy(request.password);
    return { tenant, account, passwordMatches };
  }

  /**
   * Replaces a hash made with an older cost by one with the current cost, only if it is still the stored one (a
   * password set meanwhile wins). The login succeeds even when this fails; the next one tries again. Returns the
   * replacement, which the account may hold now, or null when none was written.
   */
  private async rehash(account: LoginAccount, secret: string): Promise<string | null> {
    try {
      const replacement = await this.hasher.hash(secret);
      const statement = account.kind === 'apikey' ? replaceApiKeySecretHash : replaceUserPasswordHash;
      await runStatement(this.dataSource, statement, {
        replacement,
        uuid: account.uuid,
        verifiedHash: account.secretHash,
      });
      return replacement;
    } catch (error) {
      this.logger.warn(
        `rehashing the secret of ${account.kind} ${account.uuid} failed: ${(error as Error).message}`,
      );
      return null;
    }
  }

  private async findAccount(
    tenant: TenantEntity,
    context: EntityType,
    username: string,
  ): Promise<LoginAccount | null> {
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
