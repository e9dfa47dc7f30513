import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type ChargingSessionPage,
  ChargingSessionSubjects,
  type ChargingSessionView,
  type GetChargingSessionPayload,
  type ListChargingSessionsPayload,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { ChargingSessionsService } from './charging-sessions.service.js';

/** NATS handlers for charging sessions; the tenant always comes from the principal. */
@Controller()
export class ChargingSessionsHandler {
  constructor(private readonly sessions: ChargingSessionsService) {}

  @MessagePattern(ChargingSessionSubjects.list)
  list(@Payload() request: TenantScopedRequest<ListChargingSessionsPayload>): Promise<ChargingSessionPage> {
    return this.sessions.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(ChargingSessionSubjects.get)
  get(@Payload() request: TenantScopedRequest<GetChargingSessionPayload>): Promise<ChargingSessionView> {
    return this.sessions.get(request.principal.tenantUuid, request.payload.uuid);
  }
}
