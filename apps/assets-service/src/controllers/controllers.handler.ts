import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CursorAssetPage,
  AssetsSubjects,
  type AssetUuidPayload,
  type ControllerFilter,
  type ControllersExistRequest,
  type ControllersExistResponse,
  type ControllerView,
  type CreateControllerPayload,
  type CursorListAssetsPayload,
  type TenantScopedRequest,
  type UpdateAssetPayload,
  type UpdateControllerPayload,
} from '@cpc/contracts';
import { ValidationFailedError } from '@cpc/errors';
import { ControllersService } from './controllers.service.js';

/** Lookups one existence request may carry (command-service sends at most 500). */
export const MAX_EXISTENCE_LOOKUPS = 1000;

/** NATS handlers for controllers (OCPP charge points); the tenant always comes from the principal. */
@Controller()
export class ControllersHandler {
  constructor(private readonly controllers: ControllersService) {}

  @MessagePattern(AssetsSubjects.createController)
  create(@Payload() request: TenantScopedRequest<CreateControllerPayload>): Promise<ControllerView> {
    return this.controllers.create(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.listControllers)
  list(
    @Payload() request: TenantScopedRequest<CursorListAssetsPayload<ControllerFilter>>,
  ): Promise<CursorAssetPage<ControllerView>> {
    return this.controllers.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.getController)
  get(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<ControllerView> {
    return this.controllers.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(AssetsSubjects.controllersExist)
  async exist(@Payload() request: ControllersExistRequest): Promise<ControllersExistResponse> {
    const controllers = Array.isArray(request?.controllers) ? request.controllers : [];
    if (controllers.length > MAX_EXISTENCE_LOOKUPS) {
      throw ValidationFailedError.single(
        'controllers',
        'too_many',
        `at most ${MAX_EXISTENCE_LOOKUPS} controllers per request`,
      );
    }
    return { exists: await this.controllers.exist(controllers) };
  }

  @MessagePattern(AssetsSubjects.updateController)
  update(
    @Payload() request: TenantScopedRequest<UpdateAssetPayload<UpdateControllerPayload>>,
  ): Promise<ControllerView> {
    return this.controllers.update(
      request.principal.tenantUuid,
      request.payload.uuid,
      request.payload.changes,
    );
  }

  @MessagePattern(AssetsSubjects.deleteController)
  async delete(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<Record<string, never>> {
    await this.controllers.delete(request.principal.tenantUuid, request.payload.uuid);
    return {};
  }
}
