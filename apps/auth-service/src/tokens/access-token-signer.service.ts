import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessTokenClaims, EntityType } from '@cpc/contracts';
import jwt from 'jsonwebtoken';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';
import { SigningKeysService } from '../signing-keys/signing-keys.service.js';

export interface AccessTokenSubject {
  accountUuid: string;
  context: EntityType;
  tenantSlug: string;
  tenantUuid: string;
  dataUuid: string | null;
  permissions: string[];
  /** The account's revocation time (AccountRevocation.notBefore): the token's `iat` is at least this, 0 for none. */
  notBefore: number;
}

/** Signs access tokens with the active RS256 key and names it in the `kid` header. */
@Injectable()
export class AccessTokenSigner {
  constructor(
    private readonly signingKeys: SigningKeysService,
    @Inject(AUTH_CONFIG) private readonly config: AuthServiceConfig,
  ) {}

  get ttlSeconds(): number {
    return this.config.accessTokenTtlSeconds;
  }

  async sign(subject: AccessTokenSubject): Promise<string> {
    const key = await this.signingKeys.activeKey();
    // Never below notBefore: a token issued in the second of a revocation, after it, must not look revoked.
    const issuedAt = Math.max(Math.floor(Date.now() / 1000), subject.notBefore);
    const claims: AccessTokenClaims = {
      iss: this.config.jwtIssuer,
      aud: this.config.jwtAudience,
      sub: subject.accountUuid,
      sub_type: subject.context,
      tenant: subject.tenantSlug,
      tenant_uuid: subject.tenantUuid,
      ...(subject.dataUuid ? { data: { uuid: subject.dataUuid } } : {}),
      scope: subject.permissions.join(' '),
      iat: issuedAt,
      exp: issuedAt + this.config.accessTokenTtlSeconds,
      jti: randomUUID(),
    };
    return jwt.sign(claims, key.privateKey, { algorithm: 'RS256', keyid: key.kid });
  }
}
