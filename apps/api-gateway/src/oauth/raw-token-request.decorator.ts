import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** The token request as it came: its body, and its Authorization header (HTTP Basic client authentication). */
export interface RawTokenRequestParts {
  body: unknown;
  authorization: string | undefined;
}

/**
 * The token request, untouched: a custom parameter is skipped by the global validation pipe (422), so
 * TokenRequestPipe can answer bad input with the 400 that OAuth 2.0 and the spec's token table prescribe.
 */
export const RawTokenRequest = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RawTokenRequestParts => {
    const request = context
      .switchToHttp()
      .getRequest<{ body?: unknown; headers: Record<string, string | string[] | undefined> }>();
    const authorization = request.headers.authorization;
    return {
      body: request.body,
      authorization: typeof authorization === 'string' ? authorization : undefined,
    };
  },
);
