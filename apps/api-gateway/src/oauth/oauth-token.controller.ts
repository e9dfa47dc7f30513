import { Controller, HttpCode, Ip, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  AuthSubjects,
  type IssueTokenRequest,
  type RefreshTokenRequest,
  type TokenPair,
} from '@cpc/contracts';
import { DomainError, httpStatusForErrorCode } from '@cpc/errors';
import { ServiceClient } from '@cpc/nats';
import { Public } from '../authentication/public.decorator.js';
import { ApiErrorResponses, ErrorBody } from '../openapi/error-bodies.js';
import { BASIC_CHALLENGE, ClientAuthenticationFailedError } from './client-authentication-failed.error.js';
import { basicCredentials, TokenRequestPipe } from './token-request.pipe.js';
import { RawTokenRequest, type RawTokenRequestParts } from './raw-token-request.decorator.js';
import { TokenRequestDto, TokenResponseDto } from './token-request.dto.js';

@ApiTags('oauth')
@Controller('oauth')
export class OAuthTokenController {
  constructor(private readonly serviceClient: ServiceClient) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Obtain tokens',
    description:
      "The spec's form (username, password, tenant, context, uuid) and the RFC 6749 grants beside it: `password` " +
      '(the default; user or API-key credentials), `client_credentials` (an API key: `client_id` its public key, ' +
      '`client_secret` its private key, in the body or as HTTP Basic `Authorization`; `tenant` optional) and ' +
      "`refresh_token`. Each may narrow the token with `scope` (a subset of the role's permissions, never more). " +
      'JSON or application/x-www-form-urlencoded. Unknown fields are ignored (RFC 6749 §3.2), on this endpoint ' +
      'only. Bad input answers 400 with one item per problem (a scope beyond the role: errorKey invalid_scope; a ' +
      "`uuid` that is not the tenant's: invalid_value on uuid); wrong credentials 401.",
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiErrorResponses([400, 405, 413, 415, 429, 503], 400)
  @ApiResponse({
    status: 401,
    description:
      'Wrong credentials, or an expired or used refresh token. When client_credentials came as HTTP Basic, the ' +
      `answer challenges that scheme (RFC 6749 §5.2): WWW-Authenticate: ${BASIC_CHALLENGE}.`,
    schema: { $ref: getSchemaPath(ErrorBody) },
    headers: {
      'WWW-Authenticate': {
        description: `${BASIC_CHALLENGE} when the client authenticated with HTTP Basic.`,
        schema: { type: 'string' },
      },
    },
  })
  async token(
    @Ip() clientAddress: string,
    @RawTokenRequest(TokenRequestPipe) request: TokenRequestDto,
    @RawTokenRequest() { authorization }: RawTokenRequestParts,
  ): Promise<TokenPair> {
    const credentials = request.grant_type === 'client_credentials' ? basicCredentials(authorization) : null;
    const basic = credentials !== null && credentials !== 'malformed';
    try {
      return await this.issue(clientAddress, request);
    } catch (error) {
      // The client's own credentials failed, and it sent them as HTTP Basic: challenge that scheme.
      if (basic && error instanceof DomainError && httpStatusForErrorCode(error.code) === 401)
        throw new ClientAuthenticationFailedError(error);
      throw error;
    }
  }

  private issue(clientAddress: string, request: TokenRequestDto): Promise<TokenPair> {
    // auth-service counts requests and failed logins by address in its database, shared by every replica; the address
    // is Fastify's `request.ip`, which takes X-Forwarded-For only from a peer in TRUSTED_PROXIES.
    const scope = requestedScope(request.scope);
    if (request.grant_type === 'refresh_token') {
      return this.serviceClient.request<TokenPair, RefreshTokenRequest>(AuthSubjects.refreshToken, {
        refreshToken: request.refresh_token ?? '',
        clientAddress,
        ...(scope ? { scope } : {}),
      });
    }
    const clientCredentials = request.grant_type === 'client_credentials';
    return this.serviceClient.request<TokenPair, IssueTokenRequest>(AuthSubjects.issueToken, {
      ...(request.tenant !== undefined ? { tenant: request.tenant } : {}),
      username: (clientCredentials ? request.client_id : request.username) ?? '',
      password: (clientCredentials ? request.client_secret : request.password) ?? '',
      ...(request.context || clientCredentials ? { context: request.context ?? 'apikey' } : {}),
      ...(request.uuid ? { uuid: request.uuid } : {}),
      ...(scope ? { scope } : {}),
      clientAddress,
    });
  }
}

/** The permissions of a `scope`, or undefined when it names none (absent or only spaces: every permission). */
function requestedScope(scope: string | undefined): string[] | undefined {
  const permissions = scope?.split(' ').filter(Boolean) ?? [];
  return permissions.length > 0 ? permissions : undefined;
}
