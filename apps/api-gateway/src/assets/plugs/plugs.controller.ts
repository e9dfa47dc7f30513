import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { AssetsSubjects, type PlugSortField, type PlugView, type Principal } from '@cpc/contracts';
import { CurrentPrincipal } from '../../authentication/current-principal.decorator.js';
import {
  CURSOR_LIST_DESCRIPTION,
  CursorPaginationBody,
  PagePaginationBody,
  toCursorListPayload,
} from '../../common/asset-list-query.js';
import { AssetRequests } from '../asset-requests.js';
import { CreateRoute, DeleteRoute, ListRoute, ReadRoute, UpdateRoute } from '../asset-route.decorators.js';
import { AssetUuidPipe } from '../../common/asset-uuid.pipe.js';
import {
  CreatePlugBody,
  PLUG_FILTER_DOCS,
  PlugListQuery,
  PlugListResponse,
  PlugResponse,
  UpdatePlugBody,
} from './plug.dto.js';

/** Plugs: the connectors of a controller, with the status the charge point last reported. */
@ApiTags('assets: plugs')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('assets/plugs')
export class PlugsController {
  constructor(private readonly assets: AssetRequests) {}

  @CreateRoute(
    { permission: 'asset:plugs:create', summary: 'Add a plug (connector) to a controller' },
    PlugResponse,
  )
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreatePlugBody,
  ): Promise<{ plug: PlugView }> {
    return { plug: await this.assets.send(AssetsSubjects.createPlug, principal, { ...body }) };
  }

  @ListRoute(
    {
      permission: 'asset:plugs:list',
      summary: 'List plugs',
      description: `${CURSOR_LIST_DESCRIPTION} Plugs without a name sort after the named ones by +name, before them by -name.`,
    },
    PlugListResponse,
    PLUG_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: PlugListQuery) {
    const payload = toCursorListPayload<NonNullable<PlugListQuery['filter']>, PlugSortField>(query);
    return this.assets.list<PlugView, 'plugs'>(AssetsSubjects.listPlugs, principal, payload, 'plugs');
  }

  @ReadRoute(
    { permission: 'asset:plugs:read', summary: 'Read a plug with its live status' },
    PlugResponse,
    'Plug',
  )
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ plug: PlugView }> {
    return { plug: await this.assets.send(AssetsSubjects.getPlug, principal, { uuid }) };
  }

  @UpdateRoute(
    { permission: 'asset:plugs:update', summary: 'Change some fields of a plug' },
    PlugResponse,
    'Plug',
  )
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdatePlugBody,
  ): Promise<{ plug: PlugView }> {
    return {
      plug: await this.assets.send(AssetsSubjects.updatePlug, principal, { uuid, changes: { ...body } }),
    };
  }

  @DeleteRoute(
    {
      permission: 'asset:plugs:delete',
      summary: 'Delete a plug',
      description: 'Commands that referred to it stay listed.',
    },
    'Plug',
  )
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<Record<string, never>> {
    await this.assets.send(AssetsSubjects.deletePlug, principal, { uuid });
    return {};
  }
}
