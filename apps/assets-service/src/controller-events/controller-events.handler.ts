import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AssetsSubjects,
  type ControllerEventPage,
  type ListControllerEventsPayload,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { ControllerEventsService } from './controller-events.service.js';

/** NATS handler for a controller's event log; the tenant always comes from the principal. */
@Controller()
export class ControllerEventsHandler {
  constructor(private readonly events: ControllerEventsService) {}

  @MessagePattern(AssetsSubjects.listControllerEvents)
  list(@Payload() request: TenantScopedRequest<ListControllerEventsPayload>): Promise<ControllerEventPage> {
    return this.events.list(request.principal.tenantUuid, request.payload);
  }
}
