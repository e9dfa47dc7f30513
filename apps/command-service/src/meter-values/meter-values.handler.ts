import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ChargingSessionSubjects,
  type ListMeterValuesPayload,
  type MeterValuePage,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { MeterValuesService } from './meter-values.service.js';

/** NATS handler for a session's meter values; the tenant always comes from the principal. */
@Controller()
export class MeterValuesHandler {
  constructor(private readonly meterValues: MeterValuesService) {}

  @MessagePattern(ChargingSessionSubjects.listMeterValues)
  list(@Payload() request: TenantScopedRequest<ListMeterValuesPayload>): Promise<MeterValuePage> {
    return this.meterValues.listOfSession(request.principal.tenantUuid, request.payload);
  }
}
