import { Module } from '@nestjs/common';
import { ReservationsController } from './reservations.controller.js';

/** `GET /api/v1/control/reservations` and `/{uuid}` (ServiceClient comes from the app's global NATS module). */
@Module({ controllers: [ReservationsController] })
export class ReservationsRoutesModule {}
