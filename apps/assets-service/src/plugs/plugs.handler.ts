import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CursorAssetPage,
  AssetsSubjects,
  type AssetUuidPayload,
  type CreatePlugPayload,
  type CursorListAssetsPayload,
  type PlugFilter,
  type PlugSortField,
  type PlugView,
  type TenantScopedRequest,
  type UpdateAssetPayload,
  type UpdatePlugPayload,
} from '@cpc/contracts';
import { PlugsService } from './plugs.service.js';

/** NATS handlers for plugs (connectors); the tenant always comes from the principal. */
@Controller()
export class PlugsHandler {
  constructor(private readonly plugs: PlugsService) {}

  @MessagePattern(AssetsSubjects.createPlug)
  create(@Payload() request: TenantScopedRequest<CreatePlugPayload>): Promise<PlugView> {
    return this.plugs.create(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.listPlugs)
  list(
    @Payload() request: TenantScopedRequest<CursorListAssetsPayload<PlugFilter, PlugSortField>>,
  ): Promise<CursorAssetPage<PlugView>> {
    return this.plugs.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.getPlug)
  get(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<PlugView> {
    return this.plugs.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(AssetsSubjects.updatePlug)
  update(@Payload() request: TenantScopedRequest<UpdateAssetPayload<UpdatePlugPayload>>): Promise<PlugView> {
    return this.plugs.update(request.principal.tenantUuid, request.payload.uuid, request.payload.changes);
  }

  @MessagePattern(AssetsSubjects.deletePlug)
  async delete(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<Record<string, never>> {
    await this.plugs.delete(request.principal.tenantUuid, request.payload.uuid);
    return {};
  }
}
