import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { IssueTokenRequest, RefreshTokenRequest, TokenPair } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { InvalidTokenRequestError } from '@cpc/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import {
  AccountAuthenticator,
  InvalidCredentialsError,
} from '../credentials/account-authenticator.service.js';
import {
  lockIssuingApiKey,
  lockIssuingTenantAndRole,
  lockIssuingUser,
} from '../credentials/issuing-accounts.repository.js';
import { TokenLimits } from '../credentials/token-limits.js';
import { AccessTokenSigner } from './access-token-signer.service.js';
import { AccountRevocationsService } from './account-revocations.service.js';
import type { AccountKind } from './refresh-token.entity.js';
import { type RefreshTokenGrant, RefreshTokensService } from './refresh-tokens.service.js';
import { narrowedScope, tokenPermissions } from './token-scope.js';

/** An account that may be issued tokens, as locked in the issuing transaction. */
interface IssuingAccount {
  roleUuid: string;
  secretHash: string;
  tenantSlug: string;
  permissions: string[];
}

/**
 * The OAuth grants of the token endpoint: a login with username and password (the spec's form, RFC 6749's `password`
 * grant, and `client_credentials` with an API key, which the api-gateway hands over as a login in context `apikey`)
 * and `refresh_token`. Each may narrow the token with a `scope`.
 */
@Injectable()
export class TokenGrantsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly authenticator: AccountAuthenticator,
    private readonly apiKeys: ApiKeysService,
    private readonly signer: AccessTokenSigner,
    private readonly refreshTokens: RefreshTokensService,
    private readonly revocations: AccountRevocationsService,
    private readonly limits: TokenLimits,
  ) {}

  async passwordGrant(request: IssueTokenRequest): Promise<TokenPair> {
    await this.limits.takeRequestSlot(request.clientAddress);
    // client_credentials may leave the tenant out: the API key's public key names it. An unknown key leaves it empty,
    // which no tenant has, so the login fails as every other one does (after the same decoy verification).
    const tenant =
      request.tenant ??
      (request.context === 'apikey' ? await this.apiKeys.tenantSlugOf(request.username) : null) ??
      '';
    const account = await this.authenticator.authenticate({ ...request, tenant });
    // Checked only once the credentials are right, so that it tells nothing to whoever does not hold them.
    if (request.uuid !== undefined && request.uuid.toLowerCase() !== account.tenant.uuid) {
      throw new InvalidTokenRequestError([
        {
          errorKey: 'invalid_value',
          message: "uuid must be the tenant's own uuid (claim tenant_uuid of its tokens), or be left out",
          parameter: 'uuid',
        },
      ]);
    }
    return this.dataSource.transaction(async (manager) => {
      const live = await this.lockIssuing(manager, account.kind, account.tenant.uuid, account.uuid);
      // Disabled, revoked, deleted, given another role or another secret, or its tenant disabled, while its
      // credentials were checked.
      if (!live || live.roleUuid !== account.roleUuid || !account.secretHashes.includes(live.secretHash))
        throw new InvalidCredentialsError();
      const grant: RefreshTokenGrant = {
        familyUuid: randomUUID(),
        tenantUuid: account.tenant.uuid,
        accountKind: account.kind,
        accountUuid: account.uuid,
        context: account.entityType,
        dataUuid: request.uuid?.toLowerCase() ?? null,
        scope: narrowedScope(live.permissions, request.scope),
      };
      return this.issuePair(
        grant,
        live.permissions,
        live.tenantSlug,
        await this.refreshTokens.issue(manager, grant),
      );
    });
  }

  /**
   * Uses the refresh token and issues a new pair in one transaction: a failure (a scope beyond the family's too)
   * leaves the old token usable.
   */
  async refreshGrant({ refreshToken, clientAddress, scope }: RefreshTokenRequest): Promise<TokenPair> {
    await this.limits.takeRequestSlot(clientAddress);
    const outcome = await this.dataSource.transaction(async (manager) => {
      const presented = await this.refreshTokens.find(manager, refreshToken);
      if (!presented) return null;
      // Locked before the token is used, as a login locks: a change of the account, its role or its tenant either
      // committed (and is seen here, or revoked the token) or waits for this commit and then revokes the new token.
      const live = await this.lockIssuing(
        manager,
        presented.accountKind,
        presented.tenantUuid,
        presented.accountUuid,
      );
      if (!live) {
        await this.refreshTokens.revokeFamily(manager, presented.familyUuid);
        return null;
      }
      const consumed = await this.refreshTokens.consume(manager, refreshToken);
      if (!consumed) return null;
      const held = tokenPermissions(live.permissions, consumed.scope);
      const grant: RefreshTokenGrant = { ...consumed, scope: narrowedScope(held, scope) ?? consumed.scope };
      return this.issuePair(
        grant,
        live.permissions,
        live.tenantSlug,
        await this.refreshTokens.issue(manager, grant),
      );
    });
    if (!outcome) throw new InvalidCredentialsError();
    return outcome;
  }

  /**
   * The account as it may be issued tokens now, locked with its tenant and role until the pair is committed (see
   * issuing-accounts.repository.ts); null when it is gone, disabled or revoked, or its tenant disabled.
   */
  private async lockIssuing(
    manager: EntityManager,
    kind: AccountKind,
    tenantUuid: string,
    uuid: string,
  ): Promise<IssuingAccount | null> {
    const statement = kind === 'apikey' ? lockIssuingApiKey : lockIssuingUser;
    const [account] = await runStatement(manager, statement, { tenantUuid, uuid });
    if (!account) return null;
    const [tenantAndRole] = await runStatement(manager, lockIssuingTenantAndRole, {
      tenantUuid,
      roleUuid: account.role_uuid,
    });
    if (!tenantAndRole) return null;
    return {
      roleUuid: account.role_uuid,
      secretHash: account.secret_hash,
      tenantSlug: tenantAndRole.tenant_slug,
      permissions: tenantAndRole.permissions,
    };
  }

  private async issuePair(
    grant: RefreshTokenGrant,
    rolePermissions: readonly string[],
    tenantSlug: string,
    refreshToken: string,
  ): Promise<TokenPair> {
    const permissions = tokenPermissions(rolePermissions, grant.scope);
    const notBefore = await this.revocations.notBeforeOf(grant.accountUuid);
    const accessToken = await this.signer.sign({
      notBefore,
      accountUuid: grant.accountUuid,
      context: grant.context,
      tenantSlug,
      tenantUuid: grant.tenantUuid,
      dataUuid: grant.dataUuid,
      permissions,
    });
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: this.signer.ttlSeconds,
      // RFC 6749 §5.1: what was granted, whenever a scope narrowed it.
      ...(grant.scope === null ? {} : { scope: permissions.join(' ') }),
    };
  }
}
