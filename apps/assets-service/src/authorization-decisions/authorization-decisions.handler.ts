import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AuthorizationDecisionPage,
  AuthorizationSubjects,
  type ListAuthorizationDecisionsPayload,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { AuthorizationDecisionsService } from './authorization-decisions.service.js';

/** NATS handler of the decision log; the tenant always comes from the principal. */
@Controller()
export class AuthorizationDecisionsHandler {
  constructor(private readonly decisions: AuthorizationDecisionsService) {}

  @MessagePattern(AuthorizationSubjects.listDecisions)
  list(
    @Payload() request: TenantScopedRequest<ListAuthorizationDecisionsPayload>,
  ): Promise<AuthorizationDecisionPage> {
    return this.decisions.list(request.principal.tenantUuid, request.payload);
  }
}
