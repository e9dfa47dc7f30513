import { Injectable } from '@nestjs/common';
import {
  AssetsSubjects,
  type ControllerSettingLimits,
  type ControllerSettingLimitsPayload,
  type Principal,
  type TenantScopedRequest,
  type ValidationIssue,
} from '@cpc/contracts';
import {
  type ChangeConfigurationParameters,
  CommandValidationErrorKey,
  MAX_CONFIGURATION_SETTINGS,
} from '@cpc/ocpp-commands';
import { ServiceClient } from '@cpc/nats';

/**
 * How many settings a change_configuration may carry for its charge point: what the charge point reported, as far
 * as assets-service stored it (1.6 GetConfigurationMaxKeys for keys, 2.0.1 ItemsPerMessageSetVariables for
 * variables), else MAX_CONFIGURATION_SETTINGS.
 */
@Injectable()
export class SettingLimits {
  constructor(private readonly services: ServiceClient) {}

  /** The issue of a change with more settings than its charge point takes; none otherwise. */
  async check(
    principal: Principal,
    controllerUuid: string,
    parameters: ChangeConfigurationParameters,
  ): Promise<ValidationIssue[]> {
    const limits = await this.services.request<
      ControllerSettingLimits,
      TenantScopedRequest<ControllerSettingLimitsPayload>
    >(AssetsSubjects.controllerSettingLimits, { principal, payload: { controllerUuid } });
    const byKey = parameters.settings.some((setting) => 'key' in setting);
    const reported = byKey ? limits.getConfigurationMaxKeys : limits.itemsPerMessageSetVariables;
    const limit = reported ?? MAX_CONFIGURATION_SETTINGS;
    if (parameters.settings.length <= limit) return [];
    const source =
      reported === null
        ? 'the default while the charge point has not reported its limit'
        : byKey
          ? "the charge point's GetConfigurationMaxKeys"
          : "the charge point's ItemsPerMessageSetVariables";
    return [
      {
        errorKey: CommandValidationErrorKey.OutOfRange,
        message: `parameters.settings must have at most ${limit} items (${source})`,
        parameter: 'parameters.settings',
      },
    ];
  }
}
