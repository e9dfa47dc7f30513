import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AssetPage,
  type CursorAssetPage,
  AssetsSubjects,
  type AssetUuidPayload,
  type CreateFacilityTypePayload,
  type CreateLocationPayload,
  type FacilityTypeFilter,
  type FacilityTypeView,
  type CursorListAssetsPayload,
  type ListAssetsPayload,
  type LocationFilter,
  type LocationView,
  type TenantScopedRequest,
  type UpdateAssetPayload,
  type UpdateLocationPayload,
} from '@cpc/contracts';
import { FacilityTypesService } from './facility-types.service.js';
import { LocationsService } from './locations.service.js';

/** NATS handlers for locations and the facility-type catalogue; the tenant always comes from the principal. */
@Controller()
export class LocationsHandler {
  constructor(
    private readonly locations: LocationsService,
    private readonly facilityTypes: FacilityTypesService,
  ) {}

  @MessagePattern(AssetsSubjects.createLocation)
  create(@Payload() request: TenantScopedRequest<CreateLocationPayload>): Promise<LocationView> {
    return this.locations.create(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.listLocations)
  list(
    @Payload() request: TenantScopedRequest<CursorListAssetsPayload<LocationFilter>>,
  ): Promise<CursorAssetPage<LocationView>> {
    return this.locations.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.getLocation)
  get(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<LocationView> {
    return this.locations.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(AssetsSubjects.updateLocation)
  update(
    @Payload() request: TenantScopedRequest<UpdateAssetPayload<UpdateLocationPayload>>,
  ): Promise<LocationView> {
    return this.locations.update(request.principal.tenantUuid, request.payload.uuid, request.payload.changes);
  }

  @MessagePattern(AssetsSubjects.deleteLocation)
  async delete(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<Record<string, never>> {
    await this.locations.delete(request.principal.tenantUuid, request.payload.uuid);
    return {};
  }

  @MessagePattern(AssetsSubjects.createFacilityType)
  createFacilityType(
    @Payload() request: TenantScopedRequest<CreateFacilityTypePayload>,
  ): Promise<FacilityTypeView> {
    return this.facilityTypes.create(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.listFacilityTypes)
  listFacilityTypes(
    @Payload() request: TenantScopedRequest<ListAssetsPayload<FacilityTypeFilter>>,
  ): Promise<AssetPage<FacilityTypeView>> {
    return this.facilityTypes.list(request.principal.tenantUuid, request.payload);
  }
}
