import { Injectable } from '@nestjs/common';
import { ChargePointEventSubjects, type ConnectorStatusEvent } from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointEventPublisher, type EventFields } from '../events/charge-point-event.publisher.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';
import { utcTime } from './ocpp-time.js';

interface StatusNotification16 {
  connectorId: number;
  errorCode: string;
  status: string;
  timestamp?: string;
}

interface StatusNotification201 {
  timestamp: string;
  connectorStatus: string;
  evseId: number;
  connectorId: number;
}

/** Plug status as the charge point reports it; assets-service applies it to the plug. */
@Injectable()
export class StatusNotificationHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp1.6': ['StatusNotification'], 'ocpp2.0.1': ['StatusNotification'] } as const;

  constructor(private readonly events: ChargePointEventPublisher) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    await this.events.publish<ConnectorStatusEvent>(
      ChargePointEventSubjects.connectorStatus,
      connection,
      connection.protocol === 'ocpp1.6'
        ? connectorStatus16(payload as StatusNotification16)
        : connectorStatus201(payload as StatusNotification201),
    );
    return {};
  }
}

function connectorStatus16(status: StatusNotification16): EventFields<ConnectorStatusEvent> {
  return {
    connectorId: status.connectorId,
    evseId: null,
    status: status.status,
    errorCode: status.errorCode,
    reportedAt: status.timestamp === undefined ? new Date().toISOString() : utcTime(status.timestamp),
  };
}

function connectorStatus201(status: StatusNotification201): EventFields<ConnectorStatusEvent> {
  return {
    connectorId: status.connectorId,
    evseId: status.evseId,
    status: status.connectorStatus,
    errorCode: null,
    reportedAt: utcTime(status.timestamp),
  };
}
