import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { AssetsSubjects, type FacilityTypeView, type LocationView, type Principal } from '@cpc/contracts';
import { CurrentPrincipal } from '../../authentication/current-principal.decorator.js';
import {
  CURSOR_LIST_DESCRIPTION,
  CursorPaginationBody,
  PagePaginationBody,
  toCursorListPayload,
  toListPayload,
} from '../../common/asset-list-query.js';
import { AssetRequests } from '../asset-requests.js';
import { CreateRoute, DeleteRoute, ListRoute, ReadRoute, UpdateRoute } from '../asset-route.decorators.js';
import { AssetUuidPipe } from '../../common/asset-uuid.pipe.js';
import {
  CreateFacilityTypeBody,
  CreateLocationBody,
  FacilityTypeListQuery,
  FacilityTypeListResponse,
  FacilityTypeResponse,
  LOCATION_FILTER_DOCS,
  LocationListQuery,
  LocationListResponse,
  LocationResponse,
  toLocationFields,
  UpdateLocationBody,
} from './location.dto.js';

@ApiTags('assets: locations')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('assets/locations')
export class LocationsController {
  constructor(private readonly assets: AssetRequests) {}

  @CreateRoute({ permission: 'asset:locations:create', summary: 'Create a location' }, LocationResponse)
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateLocationBody,
  ): Promise<{ location: LocationView }> {
    const payload = toLocationFields(body);
    return { location: await this.assets.send(AssetsSubjects.createLocation, principal, payload) };
  }

  @ListRoute(
    { permission: 'asset:locations:list', summary: 'List locations', description: CURSOR_LIST_DESCRIPTION },
    LocationListResponse,
    LOCATION_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: LocationListQuery) {
    const payload = toCursorListPayload(query);
    return this.assets.list<LocationView, 'locations'>(
      AssetsSubjects.listLocations,
      principal,
      payload,
      'locations',
    );
  }

  @ReadRoute({ permission: 'asset:locations:read', summary: 'Read a location' }, LocationResponse, 'Location')
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ location: LocationView }> {
    return { location: await this.assets.send(AssetsSubjects.getLocation, principal, { uuid }) };
  }

  @UpdateRoute(
    { permission: 'asset:locations:update', summary: 'Change some fields of a location' },
    LocationResponse,
    'Location',
  )
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdateLocationBody,
  ): Promise<{ location: LocationView }> {
    const payload = { uuid, changes: toLocationFields(body) };
    return { location: await this.assets.send(AssetsSubjects.updateLocation, principal, payload) };
  }

  @DeleteRoute(
    {
      permission: 'asset:locations:delete',
      summary: 'Delete a location',
      description:
        'Refused with 422 (errorKey has_dependents) while controllers are at the location. Sensors attached to ' +
        'the location itself and its facility-type list are deleted with it.',
    },
    'Location',
  )
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<Record<string, never>> {
    await this.assets.send(AssetsSubjects.deleteLocation, principal, { uuid });
    return {};
  }
}

/** The per-tenant catalogue of facility types that locations list. */
@ApiTags('assets: locations')
@Controller('assets/facility-types')
export class FacilityTypesController {
  constructor(private readonly assets: AssetRequests) {}

  @CreateRoute(
    { permission: 'asset:facility-types:create', summary: 'Add a facility type to the catalogue' },
    FacilityTypeResponse,
  )
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateFacilityTypeBody,
  ): Promise<{ facility_type: FacilityTypeView }> {
    const payload = { name: body.name };
    return { facility_type: await this.assets.send(AssetsSubjects.createFacilityType, principal, payload) };
  }

  @ListRoute(
    { permission: 'asset:facility-types:list', summary: 'List the facility-type catalogue' },
    FacilityTypeListResponse,
    { name: { type: 'string', description: 'Part of the name, case-insensitive.' } },
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: FacilityTypeListQuery) {
    const payload = toListPayload(query);
    return this.assets.list<FacilityTypeView, 'facility_types'>(
      AssetsSubjects.listFacilityTypes,
      principal,
      payload,
      'facility_types',
    );
  }
}
