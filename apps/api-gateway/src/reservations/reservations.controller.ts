import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  type ListReservationsPayload,
  type Principal,
  type ReservationPage,
  ReservationSubjects,
  type ReservationView,
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
  RESERVATION_FILTER_DOCS,
  type ReservationFilterQuery,
  ReservationListQuery,
  ReservationListResponse,
  ReservationResponse,
} from './reservation.dto.js';

/** Reservations (command-service): read-only, made by reserve commands and ended by what charge points report. */
@ApiTags('control: reservations')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('control/reservations')
export class ReservationsController {
  constructor(private readonly services: ServiceClient) {}

  @Get()
  @RequirePermission('control:reservations:list')
  @ApiOperation({ summary: 'List reservations, newest first' })
  @ApiFilterQueries(RESERVATION_FILTER_DOCS)
  @ApiOkResponse({ type: ReservationListResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ReservationListQuery,
  ): Promise<{ reservations: ReservationView[]; pagination: ReservationPage['pagination'] }> {
    const { page, limit, filter, cursor } = toCursorListPayload<ReservationFilterQuery, never>(query);
    const result = await this.services.request<ReservationPage, TenantScopedRequest<ListReservationsPayload>>(
      ReservationSubjects.list,
      { principal, payload: { page, limit, filter, cursor } },
    );
    return { reservations: result.items, pagination: result.pagination };
  }

  @Get(':uuid')
  @RequirePermission('control:reservations:read')
  @ApiOperation({ summary: 'Read a reservation' })
  @ApiParam({ name: 'uuid', description: 'Reservation UUID', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: ReservationResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ reservation: ReservationView }> {
    const reservation = await this.services.request<ReservationView>(ReservationSubjects.get, {
      principal,
      payload: { uuid },
    });
    return { reservation };
  }
}
