import { Injectable } from '@nestjs/common';
import { ChargePointEventSubjects, type SecurityEvent } from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointEventPublisher } from '../events/charge-point-event.publisher.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';
import { utcTime } from './ocpp-time.js';

interface SecurityEventNotification {
  type: string;
  timestamp: string;
  techInfo?: string;
}

/** Security events (failed firmware signature, tamper, reset, …) kept on the event stream for audit and alerting. */
@Injectable()
export class SecurityEventNotificationHandler implements ChargePointMessageHandler {
  readonly actions = {
    'ocpp1.6': ['SecurityEventNotification'],
    'ocpp2.0.1': ['SecurityEventNotification'],
  } as const;

  constructor(private readonly events: ChargePointEventPublisher) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    const { type, timestamp, techInfo } = payload as SecurityEventNotification;
    await this.events.publish<SecurityEvent>(ChargePointEventSubjects.securityEvent, connection, {
      type,
      techInfo: techInfo ?? null,
      reportedAt: utcTime(timestamp),
    });
    return {};
  }
}
