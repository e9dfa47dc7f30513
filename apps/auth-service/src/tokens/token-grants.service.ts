import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { IssueTokenRequest, RefreshTokenRequest, TokenPair } from '@cpc/contracts';
import { DataSource } from 'typeorm';
import {
  AccountAuthenticator,
  InvalidCredentialsError,
} from '../credentials/account-authenticator.service.js';
import { TokenLimits } from '../credentials/token-limits.js';
import { RolesService } from '../roles/roles.service.js';
import { AccessTokenSigner } from './access-token-signer.service.js';
import { AccountRevocationsService } from './account-revocations.service.js';
import { type RefreshTokenGrant, RefreshTokensService } from './refresh-tokens.service.js';

/** The two OAuth grants the token endpoint offers: `password` and `refresh_token`. */
@Injectable()
export class TokenGrantsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly authenticator: AccountAuthenticator,
    private readonly roles: RolesService,
    private readonly signer: AccessTokenSigner,
    private readonly refreshTokens: RefreshTokensService,
    private readonly revocations: AccountRevocationsService,
    private readonly limits: TokenLimits,
  ) {}

  async passwordGrant(request: IssueTokenRequest): Promise<TokenPair> {
    await this.limits.takeRequestSlot(request.clientAddress);
    const account = await this.authenticator.authenticate(request);
    const grant: RefreshTokenGrant = {
      familyUuid: randomUUID(),
      tenantUuid: account.tenant.uuid,
      accountKind: account.kind,
      accountUuid: account.uuid,
      context: account.entityType,
      dataUuid: request.uuid?.toLowerCase() ?? null,
    };
    return this.dataSource.transaction(async (manager) =>
      this.issuePair(
        grant,
        account.roleUuid,
        account.tenant.slug,
        await this.refreshTokens.issue(manager, grant),
      ),
    );
  }

  /** Uses the refresh token and issues a new pair in one transaction: a failure leaves the old token usable. */
  async refreshGrant({ refreshToken, clientAddress }: RefreshTokenRequest): Promise<TokenPair> {
    await this.limits.takeRequestSlot(clientAddress);
    const outcome = await this.dataSource.transaction(async (manager) => {
      const grant = await this.refreshTokens.consume(manager, refreshToken);
      if (!grant) return null;
      const account = await this.authenticator.reload(grant.tenantUuid, grant.accountKind, grant.accountUuid);
      if (!account) {
        await this.refreshTokens.revokeFamily(manager, grant.familyUuid);
        return null;
      }
      return this.issuePair(
        grant,
        account.roleUuid,
        account.tenant.slug,
        await this.refreshTokens.issue(manager, grant),
      );
    });
    if (!outcome) throw new InvalidCredentialsError();
    return outcome;
  }

  private async issuePair(
    grant: RefreshTokenGrant,
    roleUuid: string,
    tenantSlug: string,
    refreshToken: string,
  ): Promise<TokenPair> {
    const [role, notBefore] = await Promise.all([
      this.roles.findByUuid(roleUuid),
      this.revocations.notBeforeOf(grant.accountUuid),
    ]);
    const accessToken = await this.signer.sign({
      notBefore,
      accountUuid: grant.accountUuid,
      context: grant.context,
      tenantSlug,
      tenantUuid: grant.tenantUuid,
      dataUuid: grant.dataUuid,
      permissions: role?.permissions ?? [],
    });
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: this.signer.ttlSeconds,
    };
  }
}
