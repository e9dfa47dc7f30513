import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AssetsSubjects,
  type ControllerConfigurationEntryView,
  type ControllerEventView,
  type ControllerView,
  type ListControllerConfigurationPayload,
  type ListControllerEventsPayload,
  type Principal,
} from '@cpc/contracts';
import { DEFAULT_PAGE_SIZE } from '@cpc/pagination';
import { RequirePermission } from '../../authentication/require-permission.decorator.js';
import { ApiErrorResponses, STANDARD_ERROR_STATUSES } from '../../openapi/error-bodies.js';
import { CurrentPrincipal } from '../../authentication/current-principal.decorator.js';
import {
  ApiFilterQueries,
  CursorPaginationBody,
  PagePaginationBody,
  CURSOR_LIST_DESCRIPTION,
  toCursorListPayload,
} from '../../common/asset-list-query.js';
import { AssetRequests } from '../asset-requests.js';
import {
  ApiAssetUuid,
  CreateRoute,
  DeleteRoute,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../asset-route.decorators.js';
import {
  CONTROLLER_CONFIGURATION_FILTER_DOCS,
  ControllerConfigurationQuery,
  ControllerConfigurationResponse,
} from './controller-configuration.dto.js';
import { AssetUuidPipe } from '../../common/asset-uuid.pipe.js';
import {
  CONTROLLER_FILTER_DOCS,
  ControllerListQuery,
  ControllerListResponse,
  ControllerResponse,
  CreateControllerBody,
  UpdateControllerBody,
} from './controller.dto.js';
import {
  CONTROLLER_EVENT_FILTER_DOCS,
  ControllerEventListQuery,
  ControllerEventListResponse,
} from './controller-event.dto.js';

/** Controllers: OCPP charge points, registered here before they can connect to the ocpp-gateway. */
@ApiTags('assets: controllers')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('assets/controllers')
export class ControllersController {
  constructor(private readonly assets: AssetRequests) {}

  @CreateRoute(
    { permission: 'asset:controllers:create', summary: 'Register a controller (OCPP charge point)' },
    ControllerResponse,
  )
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateControllerBody,
  ): Promise<{ controller: ControllerView }> {
    return { controller: await this.assets.send(AssetsSubjects.createController, principal, { ...body }) };
  }

  @ListRoute(
    {
      permission: 'asset:controllers:list',
      summary: 'List controllers',
      description: CURSOR_LIST_DESCRIPTION,
    },
    ControllerListResponse,
    CONTROLLER_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: ControllerListQuery) {
    const payload = toCursorListPayload(query);
    return this.assets.list<ControllerView, 'controllers'>(
      AssetsSubjects.listControllers,
      principal,
      payload,
      'controllers',
    );
  }

  @ReadRoute(
    { permission: 'asset:controllers:read', summary: 'Read a controller with its live state' },
    ControllerResponse,
    'Controller',
  )
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ controller: ControllerView }> {
    return { controller: await this.assets.send(AssetsSubjects.getController, principal, { uuid }) };
  }

  @Get(':uuid/configuration')
  @RequirePermission('asset:controllers:read')
  @ApiOperation({
    summary: "Read a controller's configuration as its charge point reported it",
    description:
      'The latest reported value of every 1.6 configuration key and 2.0.1 variable attribute (refresh_configuration, ' +
      'change_configuration, NotifyReport), ordered by key, with what reported it and when.',
  })
  @ApiAssetUuid('Controller')
  @ApiFilterQueries(CONTROLLER_CONFIGURATION_FILTER_DOCS)
  @ApiOkResponse({ type: ControllerConfigurationResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  configuration(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Query() query: ControllerConfigurationQuery,
  ) {
    const payload: ListControllerConfigurationPayload = {
      controllerUuid: uuid,
      page: query.page ?? 1,
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      filter: { ...query.filter },
    };
    return this.assets.list<ControllerConfigurationEntryView, 'configuration'>(
      AssetsSubjects.listControllerConfiguration,
      principal,
      payload,
      'configuration',
    );
  }

  @UpdateRoute(
    { permission: 'asset:controllers:update', summary: 'Change some fields of a controller' },
    ControllerResponse,
    'Controller',
  )
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdateControllerBody,
  ): Promise<{ controller: ControllerView }> {
    const payload = { uuid, changes: { ...body } };
    return { controller: await this.assets.send(AssetsSubjects.updateController, principal, payload) };
  }

  @DeleteRoute(
    {
      permission: 'asset:controllers:delete',
      summary: 'Delete a controller',
      description:
        'Deletes its plugs and the sensors attached to it, and disconnects its charge point at once. Commands ' +
        'that referred to it stay listed.',
    },
    'Controller',
  )
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<Record<string, never>> {
    await this.assets.send(AssetsSubjects.deleteController, principal, { uuid });
    return {};
  }

  @Get(':uuid/events')
  @RequirePermission('asset:controllers:read')
  @ApiOperation({ summary: "List a controller's event log, newest first" })
  @ApiAssetUuid('Controller')
  @ApiFilterQueries(CONTROLLER_EVENT_FILTER_DOCS)
  @ApiOkResponse({ type: ControllerEventListResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  events(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Query() query: ControllerEventListQuery,
  ) {
    const { page, limit, filter, cursor } = toCursorListPayload<ListControllerEventsPayload['filter'], never>(
      query,
    );
    const payload: ListControllerEventsPayload = { uuid, page, limit, filter, cursor };
    return this.assets.list<ControllerEventView, 'events'>(
      AssetsSubjects.listControllerEvents,
      principal,
      payload,
      'events',
    );
  }
}
