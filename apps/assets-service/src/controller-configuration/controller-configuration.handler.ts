import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AssetPage,
  AssetsSubjects,
  type ControllerConfigurationEntryView,
  type ControllerSettingLimits,
  type ControllerSettingLimitsPayload,
  type ListControllerConfigurationPayload,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { ControllerConfigurationService } from './controller-configuration.service.js';

/** NATS handler for a controller's reported configuration; the tenant always comes from the principal. */
@Controller()
export class ControllerConfigurationHandler {
  constructor(private readonly configuration: ControllerConfigurationService) {}

  @MessagePattern(AssetsSubjects.listControllerConfiguration)
  list(
    @Payload() request: TenantScopedRequest<ListControllerConfigurationPayload>,
  ): Promise<AssetPage<ControllerConfigurationEntryView>> {
    return this.configuration.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AssetsSubjects.controllerSettingLimits)
  settingLimits(
    @Payload() request: TenantScopedRequest<ControllerSettingLimitsPayload>,
  ): Promise<ControllerSettingLimits> {
    return this.configuration.settingLimits(request.principal.tenantUuid, request.payload?.controllerUuid);
  }
}
