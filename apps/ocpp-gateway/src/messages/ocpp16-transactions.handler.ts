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
import { energyReading16, type MeterValue16 } from './energy-meter-reading.js';
import { meterSamples16 } from './meter-samples.js';
import { IdTokenAuthorizationPolicy } from './id-token-authorization.policy.js';
import { Ocpp16TransactionIdAllocator } from './ocpp16-transaction-ids.allocator.js';
import { utcTime } from './ocpp-time.js';

interface StartTransaction16 {
  connectorId: number;
  idTag: string;
  meterStart: number;
  timestamp: string;
  reservationId?: number;
}

interface StopTransaction16 {
  transactionId: number;
  meterStop: number;
  timestamp: string;
  idTag?: string;
  reason?: string;
  transactionData?: MeterValue16[];
}

interface MeterValues16 {
  connectorId: number;
  transactionId?: number;
  meterValue: MeterValue16[];
}

/**
 * OCPP 1.6 transactions: StartTransaction, MeterValues, StopTransaction become transaction started/updated/ended
 * events (command-service keeps them as charging sessions). Charge points retry these messages until answered, so
 * each event id is derived from the message: a repeat is stored once.
 */
@Injectable()
export class Ocpp16TransactionsHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp1.6': ['StartTransaction', 'StopTransaction', 'MeterValues'] } as const;

  constructor(
    private readonly events: ChargePointEventPublisher,
    private readonly transactionIds: Ocpp16TransactionIdAllocator,
    private readonly policy: IdTokenAuthorizationPolicy,
    private readonly meterValuesPublisher: MeterValuesPublisher,
  ) {}

  handle(connection: ChargePointConnection, action: string, payload: unknown): Promise<object> {
    switch (action) {
      case 'StartTransaction':
        return this.start(connection, payload as StartTransaction16);
      case 'StopTransaction':
        return this.stop(connection, payload as StopTransaction16);
      default:
        return this.meterValues(connection, payload as MeterValues16);
    }
  }

  private async start(connection: ChargePointConnection, start: StartTransaction16): Promise<object> {
    const fingerprint = [start.connectorId, start.idTag, start.timestamp, start.meterStart].join('|');
    const transactionId = await this.transactionIds.allocate(connection.controllerUuid, fingerprint);
    await this.events.publish<TransactionStartedEvent>(
      ChargePointEventSubjects.transactionStarted,
      connection,
      {
        transactionId: String(transactionId),
        connectorId: start.connectorId,
        evseId: null,
        idTag: start.idTag,
        meterStartWh: start.meterStart,
        startedAt: utcTime(start.timestamp),
        reservationId: start.reservationId ?? null,
      },
      { eventId: eventIdFrom(connection.controllerUuid, 'started', transactionId) },
    );
    return {
      transactionId,
      idTagInfo: await this.policy.idTagInfo(connection, start.idTag, 'start_transaction'),
    };
  }

  private async stop(connection: ChargePointConnection, stop: StopTransaction16): Promise<object> {
    await this.meterValuesPublisher.publish(connection, {
      transactionId: String(stop.transactionId),
      evseId: null,
      connectorId: null,
      samples: meterSamples16(stop.transactionData),
    });
    await this.events.publish<TransactionEndedEvent>(
      ChargePointEventSubjects.transactionEnded,
      connection,
      {
        transactionId: String(stop.transactionId),
        meterStopWh: stop.meterStop,
        stoppedAt: utcTime(stop.timestamp),
        reason: stop.reason ?? null,
      },
      { eventId: eventIdFrom(connection.controllerUuid, 'ended', stop.transactionId) },
    );
    if (stop.idTag === undefined) return {};
    return { idTagInfo: await this.policy.idTagInfo(connection, stop.idTag, 'stop_transaction') };
  }

  /**
   * Every sampled value is kept; the energy register also moves the session's latest reading. Meter values outside a
   * transaction (connector or grid meters) are kept for the controller, not a charging session.
   */
  private async meterValues(connection: ChargePointConnection, values: MeterValues16): Promise<object> {
    await this.meterValuesPublisher.publish(connection, {
      transactionId: values.transactionId === undefined ? null : String(values.transactionId),
      evseId: null,
      connectorId: values.connectorId,
      samples: meterSamples16(values.meterValue),
    });
    const reading = values.transactionId === undefined ? null : energyReading16(values.meterValue);
    if (values.transactionId !== undefined && reading) {
      await this.events.publish<TransactionUpdatedEvent>(
        ChargePointEventSubjects.transactionUpdated,
        connection,
        {
          transactionId: String(values.transactionId),
          meterWh: reading.wh,
          sampledAt: utcTime(reading.sampledAt),
        },
        {
          eventId: eventIdFrom(connection.controllerUuid, 'updated', values.transactionId, reading.sampledAt),
        },
      );
    }
    return {};
  }
}
