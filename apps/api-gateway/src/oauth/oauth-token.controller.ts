import { Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AuthSubjects,
  type IssueTokenRequest,
  type RefreshTokenRequest,
  type TokenPair,
} from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';
import { Public } from '../authentication/public.decorator.js';
import { ApiErrorResponses } from '../openapi/error-bodies.js';
import { TokenRequestPipe } from './token-request.pipe.js';
import { RawTokenRequest } from './raw-token-request.decorator.js';
import { TokenRequestDto, TokenResponseDto } from './token-request.dto.js';

@ApiTags('oauth')
@Controller('oauth')
export class OAuthTokenController {
  constructor(private readonly serviceClient: ServiceClient) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Obtain tokens (password grant with user or API-key credentials, or refresh_token grant)',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiErrorResponses([400, 401, 405, 413, 415, 429, 503], 400)
  async token(
    @Ip() clientAddress: string,
    @RawTokenRequest(TokenRequestPipe) request: TokenRequestDto,
  ): Promise<TokenPair> {
    // auth-service counts requests and failed logins by address in its database, shared by every replica; the address
    // is Fastify's `request.ip`, which takes X-Forwarded-For only from a peer in TRUSTED_PROXIES.
    if (request.grant_type === 'refresh_token') {
      return this.serviceClient.request<TokenPair, RefreshTokenRequest>(AuthSubjects.refreshToken, {
        refreshToken: request.refresh_token ?? '',
        clientAddress,
      });
    }
    return this.serviceClient.request<TokenPair, IssueTokenRequest>(AuthSubjects.issueToken, {
      tenant: request.tenant ?? '',
      username: request.username ?? '',
      password: request.password ?? '',
      ...(request.context ? { context: request.context } : {}),
      ...(request.uuid ? { uuid: request.uuid } : {}),
      clientAddress,
    });
  }
}
