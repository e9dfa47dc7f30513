import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AuthSubjects,
  type IssueTokenRequest,
  type RefreshTokenRequest,
  type TokenPair,
} from '@cpc/contracts';
import { TokenGrantsService } from './token-grants.service.js';

/** NATS handlers of the token endpoint; the api-gateway has validated the request's shape already. */
@Controller()
export class TokenController {
  constructor(private readonly grants: TokenGrantsService) {}

  @MessagePattern(AuthSubjects.issueToken)
  issue(@Payload() request: IssueTokenRequest): Promise<TokenPair> {
    return this.grants.passwordGrant(request);
  }

  @MessagePattern(AuthSubjects.refreshToken)
  refresh(@Payload() request: RefreshTokenRequest): Promise<TokenPair> {
    return this.grants.refreshGrant(request);
  }
}
