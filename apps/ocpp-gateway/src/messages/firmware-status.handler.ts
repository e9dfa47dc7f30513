import { Injectable } from '@nestjs/common';
import { ChargePointEventSubjects, type FirmwareStatusEvent } from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointEventPublisher } from '../events/charge-point-event.publisher.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';

interface FirmwareStatusNotification {
  status: string;
  /** 1.6 SignedFirmwareStatusNotification and 2.0.1 (the requestId of UpdateFirmware); absent on plain 1.6. */
  requestId?: number;
}

/** Progress of a firmware update the platform ordered (update_firmware); the command itself completed on acceptance. */
@Injectable()
export class FirmwareStatusHandler implements ChargePointMessageHandler {
  readonly actions = {
    'ocpp1.6': ['FirmwareStatusNotification', 'SignedFirmwareStatusNotification'],
    'ocpp2.0.1': ['FirmwareStatusNotification'],
  } as const;

  constructor(private readonly events: ChargePointEventPublisher) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    const { status, requestId } = payload as FirmwareStatusNotification;
    await this.events.publish<FirmwareStatusEvent>(ChargePointEventSubjects.firmwareStatus, connection, {
      status,
      requestId: requestId ?? null,
      reportedAt: new Date().toISOString(),
    });
    return {};
  }
}
