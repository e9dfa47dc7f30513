import { Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AuthSubjects,
  ErrorCode,
  type IssueTokenRequest,
  type RefreshTokenRequest,
  type TokenPair,
} from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { ServiceClient } from '@cpc/nats';
import { Public } from '../authentication/public.decorator.js';
import { ApiErrorResponses } from '../openapi/error-bodies.js';
import { TokenRateLimits } from './token-rate-limits.js';
import { TokenRequestPipe } from './token-request.pipe.js';
import { RawTokenRequest } from './raw-token-request.decorator.js';
import { TokenRequestDto, TokenResponseDto } from './token-request.dto.js';

@ApiTags('oauth')
@Controller('oauth')
export class OAuthTokenController {
  constructor(
    private readonly serviceClient: ServiceClient,
    private readonly rateLimits: TokenRateLimits,
  ) {}

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
    @Ip() address: string,
    @RawTokenRequest(TokenRequestPipe) request: TokenRequestDto,
  ): Promise<TokenPair> {
    this.rateLimits.checkAddress(address);
    if (request.grant_type === 'refresh_token') {
      return this.serviceClient.request<TokenPair, RefreshTokenRequest>(AuthSubjects.refreshToken, {
        refreshToken: request.refresh_token ?? '',
      });
    }
    const tenant = request.tenant ?? '';
    const username = request.username ?? '';
    this.rateLimits.checkAccount(tenant, username);
    try {
      return await this.serviceClient.request<TokenPair, IssueTokenRequest>(AuthSubjects.issueToken, {
        tenant,
        username,
        password: request.password ?? '',
        ...(request.context ? { context: request.context } : {}),
        ...(request.uuid ? { uuid: request.uuid } : {}),
      });
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.InvalidCredentials)
        this.rateLimits.recordFailedAttempt(tenant, username);
      throw error;
    }
  }
}
