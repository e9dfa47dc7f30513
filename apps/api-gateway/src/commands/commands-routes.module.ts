import { Module } from '@nestjs/common';
import { CommandsController } from './commands.controller.js';

/** `POST` and `GET /api/v1/control/commands`, `GET /{uuid}` (ServiceClient comes from the app's global NATS module). */
@Module({ controllers: [CommandsController] })
export class CommandsRoutesModule {}
