import { Controller, Query } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import {
  type AuthorizationDecisionSortField,
  type AuthorizationDecisionView,
  AuthorizationSubjects,
  type Principal,
} from '@cpc/contracts';
import { CurrentPrincipal } from '../authentication/current-principal.decorator.js';
import { CursorPaginationBody, PagePaginationBody, toCursorListPayload } from '../common/asset-list-query.js';
import { AssetRequests } from '../assets/asset-requests.js';
import { ListRoute } from '../assets/asset-route.decorators.js';
import {
  AUTHORIZATION_DECISION_FILTER_DOCS,
  AuthorizationDecisionListQuery,
  AuthorizationDecisionListResponse,
} from './authorization-decision.dto.js';

/** Every answer the ocpp-gateways gave about a driver's id token. */
@ApiTags('authorization: decisions')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('authorization/decisions')
export class AuthorizationDecisionsController {
  constructor(private readonly assets: AssetRequests) {}

  @ListRoute(
    {
      permission: 'authorization:decisions:list',
      summary: 'List authorization decisions',
      description:
        'Newest first unless order_by says otherwise; the log grows without bound, so it is offered by cursor too ' +
        '(cursor and limit; pagination.cursor.next / prev).',
    },
    AuthorizationDecisionListResponse,
    AUTHORIZATION_DECISION_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: AuthorizationDecisionListQuery) {
    const payload = toCursorListPayload<object, AuthorizationDecisionSortField>(query);
    return this.assets.list<AuthorizationDecisionView, 'decisions'>(
      AuthorizationSubjects.listDecisions,
      principal,
      payload,
      'decisions',
    );
  }
}
