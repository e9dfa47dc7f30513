import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityType } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';
import { type AccountKind, RefreshTokenEntity } from './refresh-token.entity.js';
import { consumeRefreshToken } from './refresh-tokens.repository.js';

export interface RefreshTokenGrant {
  familyUuid: string;
  tenantUuid: string;
  accountKind: AccountKind;
  accountUuid: string;
  context: EntityType;
  dataUuid: string | null;
  /** The permissions the family was narrowed to (RFC 6749 `scope`); null: every permission of the role. */
  scope: string[] | null;
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

@Injectable()
export class RefreshTokensService {
  private readonly logger = new Logger(RefreshTokensService.name);

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthServiceConfig) {}

  /** Stores a new token of the grant's family; the token itself exists only in the answer. */
  async issue(manager: EntityManager, grant: RefreshTokenGrant): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const { scope, ...family } = grant;
    await manager.insert(RefreshTokenEntity, {
      uuid: randomUUID(),
      tokenHash: hashToken(token),
      ...family,
      scope: scope === null ? null : scope.join(' '),
      expiresAt: new Date(Date.now() + this.config.refreshTokenTtlSeconds * 1000),
      usedAt: null,
      revokedAt: null,
    });
    return token;
  }

  /** The stored token, whatever its state: whose it is, to lock that account before the token is used. */
  find(manager: EntityManager, token: string): Promise<RefreshTokenEntity | null> {
    return manager.findOneBy(RefreshTokenEntity, { tokenHash: hashToken(token) });
  }

  /**
   * Marks the token used and returns its grant, or null when it cannot be used (see consumeRefreshToken). A token
   * that was already used (or revoked) revokes its whole family: that is what a stolen refresh token looks like.
   */
  async consume(manager: EntityManager, token: string): Promise<RefreshTokenGrant | null> {
    const tokenHash = hashToken(token);
    const [consumed] = await runStatement(manager, consumeRefreshToken, { tokenHash });
    if (consumed) {
      return {
        familyUuid: consumed.family_uuid,
        tenantUuid: consumed.tenant_uuid,
        accountKind: consumed.account_kind as AccountKind,
        accountUuid: consumed.account_uuid,
        context: consumed.context as EntityType,
        dataUuid: consumed.data_uuid,
        scope: consumed.scope === null ? null : consumed.scope.split(' '),
      };
    }
    const presented = await manager.findOneBy(RefreshTokenEntity, { tokenHash });
    if (presented && (presented.usedAt !== null || presented.revokedAt !== null)) {
      await this.revokeFamily(manager, presented.familyUuid);
      this.logger.warn(`refresh token reuse detected; family ${presented.familyUuid} revoked`);
    }
    return null;
  }

  /** Revokes every token of the family stored now; one a refresh in flight stores after is refused by consume. */
  async revokeFamily(manager: EntityManager, familyUuid: string): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(RefreshTokenEntity)
      .set({ revokedAt: () => 'now()' })
      .where('family_uuid = :familyUuid AND revoked_at IS NULL', { familyUuid })
      .execute();
  }
}
