import { Injectable } from '@nestjs/common';
import {
  ChargePointEventSubjects,
  type TransactionEndedEvent,
  type TransactionStartedEvent,
  type TransactionUpdatedEvent,
} from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointEventPublisher, eventIdFrom } from '../events/charge-point-event.publisher.js';
import { MeterValuesPublisher } from '../events/meter-values.publisher.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';
import { energyReading201, type MeterValue201 } from './energy-meter-reading.js';
import { IdTokenAuthorizationPolicy } from './id-token-authorization.policy.js';
import { meterSamples201 } from './meter-samples.js';
import { utcTime } from './ocpp-time.js';

interface TransactionEvent201 {
  eventType: 'Started' | 'Updated' | 'Ended';
  timestamp: string;
  seqNo: number;
  transactionInfo: { transactionId: string; stoppedReason?: string };
  evse?: { id: number; connectorId?: number };
  idToken?: { idToken: string; type: string };
  meterValue?: MeterValue201[];
  reservationId?: number;
}

function transactionLocation(evse: TransactionEvent201['evse']): {
  evseId?: number;
  connectorId?: number | null;
} {
  return evse ? { evseId: evse.id, connectorId: evse.connectorId ?? null } : {};
}

/**
 * OCPP 2.0.1 TransactionEvent: the charge point numbers its transactions itself, and `seqNo` counts the messages of
 * one transaction. A charge point that reboots may use a transaction id again, seqNo from 0 again, so (transaction
 * id, seqNo, timestamp) identifies a message and its event id: a message sent again is the same, timestamp included.
 */
@Injectable()
export class TransactionEventHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp2.0.1': ['TransactionEvent'] } as const;

  constructor(
    private readonly events: ChargePointEventPublisher,
    private readonly policy: IdTokenAuthorizationPolicy,
    private readonly meterValues: MeterValuesPublisher,
  ) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    const event = payload as TransactionEvent201;
    const transactionId = event.transactionInfo.transactionId;
    const eventId = eventIdFrom(
      connection.controllerUuid,
      'transaction-event',
      transactionId,
      event.seqNo,
      event.timestamp,
    );
    await this.meterValues.publish(connection, {
      transactionId,
      evseId: event.evse?.id ?? null,
      connectorId: event.evse?.connectorId ?? null,
      samples: meterSamples201(event.meterValue),
    });
    switch (event.eventType) {
      case 'Started':
        await this.events.publish<TransactionStartedEvent>(
          ChargePointEventSubjects.transactionStarted,
          connection,
          {
            transactionId,
            // A transaction may start before a cable is plugged in (no connector yet); 0 then means "not known".
            connectorId: event.evse?.connectorId ?? 0,
            evseId: event.evse?.id ?? null,
            idTag: event.idToken?.idToken ?? null,
            meterStartWh: energyReading201(event.meterValue, 'Transaction.Begin')?.wh ?? null,
            startedAt: utcTime(event.timestamp),
            reservationId: event.reservationId ?? null,
          },
          { eventId },
        );
        break;
      case 'Updated': {
        const reading = energyReading201(event.meterValue);
        // Without a reading, an Updated that names the EVSE still completes a session whose start did not, one that
        // names a reservation uses it up, and one with an id token (authorized after the start) names who charges.
        if (reading || event.evse || event.reservationId !== undefined || event.idToken) {
          await this.events.publish<TransactionUpdatedEvent>(
            ChargePointEventSubjects.transactionUpdated,
            connection,
            {
              transactionId,
              meterWh: reading?.wh ?? null,
              sampledAt: utcTime(reading?.sampledAt ?? event.timestamp),
              ...transactionLocation(event.evse),
              ...(event.reservationId === undefined ? {} : { reservationId: event.reservationId }),
              ...(event.idToken ? { idTag: event.idToken.idToken } : {}),
            },
            { eventId },
          );
        }
        break;
      }
      case 'Ended':
        await this.events.publish<TransactionEndedEvent>(
          ChargePointEventSubjects.transactionEnded,
          connection,
          {
            transactionId,
            meterStopWh: energyReading201(event.meterValue, 'Transaction.End')?.wh ?? null,
            stoppedAt: utcTime(event.timestamp),
            reason: event.transactionInfo.stoppedReason ?? null,
            ...transactionLocation(event.evse),
          },
          { eventId },
        );
        break;
    }
    if (!event.idToken) return {};
    return {
      idTokenInfo: await this.policy.idTokenInfo(connection, event.idToken, 'transaction_event'),
    };
  }
}
