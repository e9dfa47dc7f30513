import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  type AuthorizationDecisionSortField,
  type AuthorizationDecisionView,
  AuthorizationSubjects,
  type Principal,
} from '@cpc/contracts';
import { CurrentPrincipal } from '../authentication/current-principal.decorator.js';
import { toListPayload } from '../common/asset-list-query.js';
import { AssetRequests } from '../assets/asset-requests.js';
import { ListRoute } from '../assets/asset-route.decorators.js';
import {
  AUTHORIZATION_DECISION_FILTER_DOCS,
  AuthorizationDecisionListQuery,
  AuthorizationDecisionListResponse,
} from './authorization-decision.dto.js';

/** Every answer the ocpp-gateways gave about a driver's id token. */
@ApiTags('authorization: decisions')
@Controller('authorization/decisions')
export class AuthorizationDecisionsController {
  constructor(private readonly assets: AssetRequests) {}

  @ListRoute(
    {
      permission: 'authorization:decisions:list',
      summary: 'List authorization decisions',
      description: 'Newest first unless order_by says otherwise.',
    },
    AuthorizationDecisionListResponse,
    AUTHORIZATION_DECISION_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: AuthorizationDecisionListQuery) {
    const payload = toListPayload<object, AuthorizationDecisionSortField>(query);
    return this.assets.list<AuthorizationDecisionView, 'decisions'>(
      AuthorizationSubjects.listDecisions,
      principal,
      payload,
      'decisions',
    );
  }
}
