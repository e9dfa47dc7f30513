import { Module } from '@nestjs/common';
import { ReservationsHandler } from './reservations.handler.js';
import { ReservationsService } from './reservations.service.js';

/** Reservations: written from the gateway's events (by the consumers of commands and sessions), read over NATS. */
@Module({
  controllers: [ReservationsHandler],
  providers: [ReservationsService],
  exports: [ReservationsService],
})
export class ReservationsModule {}
