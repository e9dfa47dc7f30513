import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller.js';

/** `/api/v1/webhooks` (ServiceClient comes from the app's global NATS module). */
@Module({ controllers: [WebhooksController] })
export class WebhooksRoutesModule {}
