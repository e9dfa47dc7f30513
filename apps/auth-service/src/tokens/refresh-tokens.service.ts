import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityType } from '@cpc/contracts';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';
import { type AccountKind, RefreshTokenEntity } from './refresh-token.entity.js';

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

  /**
   * Marks the token used and returns its grant, or null when it cannot be used. A token that was already used (or
   * whose family was revoked) revokes its whole family: that is what a stolen refresh token looks like.
   */
  async consume(manager: EntityManager, token: string): Promise<RefreshTokenGrant | null> {
    const tokenHash = hashToken(token);
    const rows: RefreshTokenEntity[] = await manager
      .createQueryBuilder()
      .update(RefreshTokenEntity)
      .set({ usedAt: () => 'now()' })
      .where('token_hash = :tokenHash AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()', {
        tokenHash,
      })
      .returning('*')
      .execute()
      .then((result) =>
        (result.raw as Record<string, unknown>[]).map((raw) =>
          manager.create(RefreshTokenEntity, {
            familyUuid: raw.family_uuid as string,
            tenantUuid: raw.tenant_uuid as string,
            accountKind: raw.account_kind as AccountKind,
            accountUuid: raw.account_uuid as string,
            context: raw.context as EntityType,
            dataUuid: (raw.data_uuid as string | null) ?? null,
            scope: (raw.scope as string | null) ?? null,
          }),
        ),
      );
    const consumed = rows[0];
    if (consumed) {
      const { familyUuid, tenantUuid, accountKind, accountUuid, context, dataUuid, scope } = consumed;
      return {
        familyUuid,
        tenantUuid,
        accountKind,
        accountUuid,
        context,
        dataUuid,
        scope: scope === null ? null : scope.split(' '),
      };
    }
    const presented = await manager.findOneBy(RefreshTokenEntity, { tokenHash });
    if (presented && (presented.usedAt !== null || presented.revokedAt !== null)) {
      await this.revokeFamily(manager, presented.familyUuid);
      this.logger.warn(`refresh token reuse detected; family ${presented.familyUuid} revoked`);
    }
    return null;
  }

  async revokeFamily(manager: EntityManager, familyUuid: string): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(RefreshTokenEntity)
      .set({ revokedAt: () => 'now()' })
      .where('family_uuid = :familyUuid AND revoked_at IS NULL', { familyUuid })
      .execute();
  }
}
