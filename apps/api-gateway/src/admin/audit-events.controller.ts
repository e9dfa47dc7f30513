import { Controller, Query } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { AuthAdminSubjects, type AuditEventView, type Principal } from '@cpc/contracts';
import { AssetRequests } from '../assets/asset-requests.js';
import { ListRoute } from '../assets/asset-route.decorators.js';
import { CurrentPrincipal } from '../authentication/current-principal.decorator.js';
import { CursorPaginationBody, PagePaginationBody, toCursorListPayload } from '../common/asset-list-query.js';
import { AUDIT_EVENT_FILTER_DOCS, AuditEventListQuery, AuditEventListResponse } from './admin.dto.js';

/** The audit log of the tenant's users, roles and API keys: every change through the admin API or the CLI. */
@ApiTags('admin: audit-events')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('admin/audit-events')
export class AuditEventsController {
  constructor(private readonly reads: AssetRequests) {}

  @ListRoute(
    {
      permission: 'admin:audit-events:list',
      summary: 'List audit events, newest first',
      description:
        'Who changed which user, role or API key, when, from which address; before and after, no secrets.',
    },
    AuditEventListResponse,
    AUDIT_EVENT_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: AuditEventListQuery) {
    const { page, limit, filter, cursor } = toCursorListPayload(query);
    const payload = { page, limit, filter, cursor };
    return this.reads.list<AuditEventView, 'audit_events'>(
      AuthAdminSubjects.listAuditEvents,
      principal,
      payload,
      'audit_events',
    );
  }
}
