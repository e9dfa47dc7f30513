import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Principal } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { ACCESS_TOKEN_STRATEGY, bearerTokenOf } from './access-token.strategy.js';
import { RevocationList } from './revocation-list.js';
import { RouteAccess } from './route-access.js';
import { UnauthorizedError } from './unauthorized.error.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

/**
 * First of the global guards: every route needs a valid bearer token unless it is marked @Public(). A token verified
 * before and still valid (VerifiedTokenCache) is not verified again, but checked against revocations every time.
 */
@Injectable()
export class AccessTokenGuard extends AuthGuard(ACCESS_TOKEN_STRATEGY) {
  constructor(
    private readonly routes: RouteAccess,
    private readonly verifiedTokens: VerifiedTokenCache,
    private readonly revocations: RevocationList,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.routes.of(context).isPublic) return true;
    const request = context.switchToHttp().getRequest<{ user?: Principal }>();
    const token = bearerTokenOf(request);
    const verified = token ? await this.verifiedTokens.accessFor(token) : undefined;
    if (verified) {
      await this.revocations.check(verified.principal.subject, verified.issuedAt);
      request.user = verified.principal;
      return true;
    }
    return (await super.canActivate(context)) as boolean;
  }

  override handleRequest<TUser>(error: unknown, user: TUser, info: unknown): TUser {
    if (user) return user;
    // The strategy's own refusals (a revoked token, revocations that cannot be checked) keep their answer.
    if (error instanceof DomainError) throw error;
    if (info instanceof UnauthorizedError) throw info;
    const name = info instanceof Error ? info.name : '';
    if (name === 'TokenExpiredError') throw new UnauthorizedError('access token expired');
    if (info instanceof Error && info.message === 'No auth token')
      throw new UnauthorizedError('missing bearer token', false);
    throw new UnauthorizedError('invalid access token');
  }
}
