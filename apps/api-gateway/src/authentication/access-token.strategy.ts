import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { AccessTokenClaims, Principal } from '@cpc/contracts';
import jwt from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { API_GATEWAY_CONFIG, type ApiGatewayConfig } from '../api-gateway.config.js';
import { SigningKeyCache } from './signing-key-cache.js';
import { UnauthorizedError } from './unauthorized.error.js';

export const ACCESS_TOKEN_STRATEGY = 'access-token';

/**
 * Verifies bearer tokens locally: RS256 only (so neither `none` nor an HMAC signed with the public key passes), the
 * key chosen by `kid` among auth-service's current keys, issuer and audience checked.
 */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(Strategy, ACCESS_TOKEN_STRATEGY) {
  constructor(keys: SigningKeyCache, @Inject(API_GATEWAY_CONFIG) config: ApiGatewayConfig) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: ['RS256'],
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      ignoreExpiration: false,
      secretOrKeyProvider: (
        _request: unknown,
        rawToken: string,
        done: (error: unknown, key?: string) => void,
      ) => {
        const kid = jwt.decode(rawToken, { complete: true })?.header.kid;
        if (!kid) return done(new UnauthorizedError('access token has no key id'));
        keys.publicKeyFor(kid).then(
          (key) =>
            key
              ? // passport-jwt's types predate KeyObject; jsonwebtoken 9, which it hands the key to, takes one.
                done(null, key as unknown as string)
              : done(new UnauthorizedError('access token signed with an unknown or revoked key')),
          (error: unknown) => done(error),
        );
      },
    });
  }

  validate(claims: AccessTokenClaims): Principal {
    if (
      typeof claims.tenant_uuid !== 'string' ||
      typeof claims.tenant !== 'string' ||
      typeof claims.scope !== 'string'
    ) {
      throw new UnauthorizedError('access token lacks required claims');
    }
    return {
      tenantUuid: claims.tenant_uuid,
      tenantSlug: claims.tenant,
      subject: claims.sub,
      subjectType: claims.sub_type,
      scopes: claims.scope.split(' ').filter(Boolean),
    };
  }
}
