import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ACCESS_TOKEN_STRATEGY } from './access-token.strategy.js';
import { IS_PUBLIC } from './public.decorator.js';
import { UnauthorizedError } from './unauthorized.error.js';

/** First of the global guards: every route needs a valid bearer token unless it is marked @Public(). */
@Injectable()
export class AccessTokenGuard extends AuthGuard(ACCESS_TOKEN_STRATEGY) {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]))
      return true;
    return super.canActivate(context);
  }

  override handleRequest<TUser>(error: unknown, user: TUser, info: unknown): TUser {
    if (user) return user;
    if (error instanceof UnauthorizedError) throw error;
    if (info instanceof UnauthorizedError) throw info;
    const name = info instanceof Error ? info.name : '';
    if (name === 'TokenExpiredError') throw new UnauthorizedError('access token expired');
    if (info instanceof Error && info.message === 'No auth token')
      throw new UnauthorizedError('missing bearer token', false);
    throw new UnauthorizedError('invalid access token');
  }
}
