import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  type ChargingSessionPage,
  ChargingSessionSubjects,
  type ChargingSessionView,
  type ListChargingSessionsPayload,
  type ListMeterValuesPayload,
  type MeterValuePage,
  type MeterValueView,
  type Principal,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';
import {
  ApiFilterQueries,
  CursorPaginationBody,
  PagePaginationBody,
  toCursorListPayload,
} from '../common/asset-list-query.js';
import { AssetUuidPipe } from '../common/asset-uuid.pipe.js';
import { CurrentPrincipal } from '../authentication/current-principal.decorator.js';
import { RequirePermission } from '../authentication/require-permission.decorator.js';
import { ApiErrorResponses, STANDARD_ERROR_STATUSES } from '../openapi/error-bodies.js';
import {
  CHARGING_SESSION_FILTER_DOCS,
  type ChargingSessionFilterQuery,
  ChargingSessionListQuery,
  ChargingSessionListResponse,
  ChargingSessionResponse,
  METER_VALUE_FILTER_DOCS,
  MeterValueListQuery,
  MeterValueListResponse,
} from './charging-session.dto.js';

/** Charging sessions (command-service): read-only, they come from what charge points report. */
@ApiTags('control: charging sessions')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('control/charging-sessions')
export class ChargingSessionsController {
  constructor(private readonly services: ServiceClient) {}

  @Get()
  @RequirePermission('control:charging-sessions:list')
  @ApiOperation({ summary: 'List charging sessions' })
  @ApiFilterQueries(CHARGING_SESSION_FILTER_DOCS)
  @ApiOkResponse({ type: ChargingSessionListResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ChargingSessionListQuery,
  ): Promise<{ charging_sessions: ChargingSessionView[]; pagination: ChargingSessionPage['pagination'] }> {
    const payload: ListChargingSessionsPayload = toCursorListPayload<
      ChargingSessionFilterQuery,
      'started_at' | 'created_at'
    >(query);
    const page = await this.services.request<
      ChargingSessionPage,
      TenantScopedRequest<ListChargingSessionsPayload>
    >(ChargingSessionSubjects.list, { principal, payload });
    return { charging_sessions: page.items, pagination: page.pagination };
  }

  @Get(':uuid')
  @RequirePermission('control:charging-sessions:read')
  @ApiOperation({ summary: 'Read a charging session' })
  @ApiParam({
    name: 'uuid',
    description: 'Charging session UUID',
    schema: { type: 'string', format: 'uuid' },
  })
  @ApiOkResponse({ type: ChargingSessionResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ charging_session: ChargingSessionView }> {
    const session = await this.services.request<ChargingSessionView>(ChargingSessionSubjects.get, {
      principal,
      payload: { uuid },
    });
    return { charging_session: session };
  }

  @Get(':uuid/meter-values')
  @RequirePermission('control:charging-sessions:read')
  @ApiOperation({ summary: "List a charging session's meter values, oldest first" })
  @ApiParam({
    name: 'uuid',
    description: 'Charging session UUID',
    schema: { type: 'string', format: 'uuid' },
  })
  @ApiFilterQueries(METER_VALUE_FILTER_DOCS)
  @ApiOkResponse({ type: MeterValueListResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async meterValues(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Query() query: MeterValueListQuery,
  ): Promise<{ meter_values: MeterValueView[]; pagination: MeterValuePage['pagination'] }> {
    const { page, limit, filter, cursor } = toCursorListPayload<ListMeterValuesPayload['filter'], never>(
      query,
    );
    const result = await this.services.request<MeterValuePage, TenantScopedRequest<ListMeterValuesPayload>>(
      ChargingSessionSubjects.listMeterValues,
      { principal, payload: { uuid, page, limit, filter, cursor } },
    );
    return { meter_values: result.items, pagination: result.pagination };
  }
}
