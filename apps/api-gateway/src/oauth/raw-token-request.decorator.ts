import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * The token request body, untouched: a custom parameter is skipped by the global validation pipe (422), so
 * TokenRequestPipe can answer bad input with the 400 that OAuth 2.0 and the spec's token table prescribe.
 */
export const RawTokenRequest = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<{ body?: unknown }>().body,
);
