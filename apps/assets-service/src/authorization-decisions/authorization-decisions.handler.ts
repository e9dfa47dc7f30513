import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AssetPage,
  type AuthorizationDecisionFilter,
  type AuthorizationDecisionSortField,
  type AuthorizationDecisionView,
  AuthorizationSubjects,
  type ListAssetsPayload,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { AuthorizationDecisionsService } from './authorization-decisions.service.js';

/** NATS handler of the decision log; the tenant always comes from the principal. */
@Controller()
export class AuthorizationDecisionsHandler {
  constructor(private readonly decisions: AuthorizationDecisionsService) {}

  @MessagePattern(AuthorizationSubjects.listDecisions)
  list(
    @Payload()
    request: TenantScopedRequest<
      ListAssetsPayload<AuthorizationDecisionFilter, AuthorizationDecisionSortField>
    >,
  ): Promise<AssetPage<AuthorizationDecisionView>> {
    return this.decisions.list(request.principal.tenantUuid, request.payload);
  }
}
