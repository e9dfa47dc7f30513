import { Injectable } from '@nestjs/common';
import { ChargePointEventSubjects, type ReservationStatusEvent } from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointEventPublisher } from '../events/charge-point-event.publisher.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';

interface ReservationStatusUpdate {
  reservationId: number;
  reservationUpdateStatus: string;
}

/** 2.0.1 ReservationStatusUpdate: a reservation ended on the station; command-service ends it in its records too. */
@Injectable()
export class ReservationStatusUpdateHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp2.0.1': ['ReservationStatusUpdate'] } as const;

  constructor(private readonly events: ChargePointEventPublisher) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    const { reservationId, reservationUpdateStatus } = payload as ReservationStatusUpdate;
    await this.events.publish<ReservationStatusEvent>(
      ChargePointEventSubjects.reservationStatus,
      connection,
      {
        reservationId,
        status: reservationUpdateStatus,
        reportedAt: new Date().toISOString(),
      },
    );
    return {};
  }
}
