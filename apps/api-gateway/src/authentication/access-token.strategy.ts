import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { AccessTokenClaims, Principal } from '@cpc/contracts';
import jwt from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { API_GATEWAY_CONFIG, type ApiGatewayConfig } from '../api-gateway.config.js';
import { RevocationList } from './revocation-list.js';
import { SigningKeyCache } from './signing-key-cache.js';
import { UnauthorizedError } from './unauthorized.error.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

export const ACCESS_TOKEN_STRATEGY = 'access-token';

/** The bearer token of a request, exactly as the strategy reads it. */
export const bearerTokenOf = ExtractJwt.fromAuthHeaderAsBearerToken();

/**
 * Verifies bearer tokens locally: RS256 only (so neither `none` nor an HMAC signed with the public key passes), the
 * key chosen by `kid` among auth-service's current keys, issuer and audience checked, and not revoked (RevocationList).
 * A verified token is remembered with the key that verified it (VerifiedTokenCache).
 */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(Strategy, ACCESS_TOKEN_STRATEGY) {
  /** The key each request in verification was checked with, until validate() remembers the token. */
  private readonly verifyingKeys = new WeakMap<object, { kid: string; key: KeyObject }>();

  constructor(
    keys: SigningKeyCache,
    private readonly verifiedTokens: VerifiedTokenCache,
    private readonly revocations: RevocationList,
    @Inject(API_GATEWAY_CONFIG) config: ApiGatewayConfig,
  ) {
    super({
      jwtFromRequest: bearerTokenOf,
      algorithms: ['RS256'],
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      ignoreExpiration: false,
      passReqToCallback: true,
      secretOrKeyProvider: (
        request: object,
        rawToken: string,
        done: (error: unknown, key?: string) => void,
      ) => {
        const kid = jwt.decode(rawToken, { complete: true })?.header.kid;
        if (!kid) return done(new UnauthorizedError('access token has no key id'));
        keys.publicKeyFor(kid).then(
          (key) => {
            if (!key)
              return done(new UnauthorizedError('access token signed with an unknown or revoked key'));
            this.verifyingKeys.set(request, { kid, key });
            // passport-jwt's types predate KeyObject; jsonwebtoken 9, which it hands the key to, takes one.
            done(null, key as unknown as string);
          },
          (error: unknown) => done(error),
        );
      },
    });
  }

  /** A token without `iat` cannot be checked against revocations, so it is refused. */
  async validate(request: object, claims: AccessTokenClaims): Promise<Principal> {
    if (
      typeof claims.tenant_uuid !== 'string' ||
      typeof claims.tenant !== 'string' ||
      typeof claims.scope !== 'string' ||
      typeof claims.sub !== 'string' ||
      typeof claims.iat !== 'number'
    ) {
      throw new UnauthorizedError('access token lacks required claims');
    }
    await this.revocations.check(claims.sub, claims.iat);
    const principal: Principal = {
      tenantUuid: claims.tenant_uuid,
      tenantSlug: claims.tenant,
      subject: claims.sub,
      subjectType: claims.sub_type,
      scopes: claims.scope.split(' ').filter(Boolean),
    };
    const verifiedWith = this.verifyingKeys.get(request);
    const token = bearerTokenOf(request);
    if (verifiedWith && token) {
      this.verifiedTokens.remember(
        token,
        principal,
        verifiedWith.kid,
        verifiedWith.key,
        claims.exp,
        claims.iat,
      );
    }
    return principal;
  }
}
