import { Injectable } from '@nestjs/common';
import { ChargePointEventSubjects, type DiagnosticsStatusEvent } from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointEventPublisher } from '../events/charge-point-event.publisher.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';

interface DiagnosticsStatusNotification {
  status: string;
  /** LogStatusNotification (the requestId of GetLog); absent on 1.6 DiagnosticsStatusNotification. */
  requestId?: number;
}

/** Progress of an upload the platform ordered (request_diagnostics): 1.6 GetDiagnostics, 2.0.1 and 1.6-security GetLog. */
@Injectable()
export class DiagnosticsStatusHandler implements ChargePointMessageHandler {
  readonly actions = {
    'ocpp1.6': ['DiagnosticsStatusNotification', 'LogStatusNotification'],
    'ocpp2.0.1': ['LogStatusNotification'],
  } as const;

  constructor(private readonly events: ChargePointEventPublisher) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    const { status, requestId } = payload as DiagnosticsStatusNotification;
    await this.events.publish<DiagnosticsStatusEvent>(
      ChargePointEventSubjects.diagnosticsStatus,
      connection,
      {
        status,
        requestId: requestId ?? null,
        reportedAt: new Date().toISOString(),
      },
    );
    return {};
  }
}
