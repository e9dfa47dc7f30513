import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type GetReservationPayload,
  type ListReservationsPayload,
  type ReservationPage,
  ReservationSubjects,
  type ReservationView,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { ReservationsService } from './reservations.service.js';

/** NATS handlers for reservations; the tenant always comes from the principal. */
@Controller()
export class ReservationsHandler {
  constructor(private readonly reservations: ReservationsService) {}

  @MessagePattern(ReservationSubjects.list)
  list(@Payload() request: TenantScopedRequest<ListReservationsPayload>): Promise<ReservationPage> {
    return this.reservations.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(ReservationSubjects.get)
  get(@Payload() request: TenantScopedRequest<GetReservationPayload>): Promise<ReservationView> {
    return this.reservations.get(request.principal.tenantUuid, request.payload.uuid);
  }
}
