import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CursorAssetPage,
  AssetsSubjects,
  type AssetUuidPayload,
  type CreateSensorPayload,
  type CursorListAssetsPayload,
  type SensorFilter,
  type SensorView,
  type TenantScopedRequest,
  type UpdateAssetPayload,
  type UpdateSensorPayload,
} from '@cpc/contracts';
import { SensorsService } from './sensors.service.js';

/** NATS handlers for sensors; the tenant always comes from the principal. */
@Controller()
export class SensorsHandler {
  constructor(private readonly sensors: SensorsService) {}

  @MessagePattern(AssetsSubjects.createSensor)
  create(@Payload() request: TenantScopedRequest<CreateSensorPayload>): Promise<SensorView> {
    return this.sensors.create(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.listSensors)
  list(
    @Payload() request: TenantScopedRequest<CursorListAssetsPayload<SensorFilter>>,
  ): Promise<CursorAssetPage<SensorView>> {
    return this.sensors.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.getSensor)
  get(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<SensorView> {
    return this.sensors.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(AssetsSubjects.updateSensor)
  update(
    @Payload() request: TenantScopedRequest<UpdateAssetPayload<UpdateSensorPayload>>,
  ): Promise<SensorView> {
    return this.sensors.update(request.principal.tenantUuid, request.payload.uuid, request.payload.changes);
  }

  @MessagePattern(AssetsSubjects.deleteSensor)
  async delete(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<Record<string, never>> {
    await this.sensors.delete(request.principal.tenantUuid, request.payload.uuid);
    return {};
  }
}
