import { Module } from '@nestjs/common';
import { ChargingSessionsController } from './charging-sessions.controller.js';

/** `GET /api/v1/control/charging-sessions` and `/{uuid}` (ServiceClient comes from the app's global NATS module). */
@Module({ controllers: [ChargingSessionsController] })
export class ChargingSessionsRoutesModule {}
