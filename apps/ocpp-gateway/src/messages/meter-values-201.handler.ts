import { Injectable } from '@nestjs/common';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { MeterValuesPublisher } from '../events/meter-values.publisher.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';
import type { MeterValue201 } from './energy-meter-reading.js';
import { meterSamples201 } from './meter-samples.js';

interface MeterValues201 {
  /** 0: the station's main meter. */
  evseId: number;
  meterValue: MeterValue201[];
}

/** 2.0.1 MeterValues: sampled values outside a transaction (those of a transaction come in TransactionEvent). */
@Injectable()
export class MeterValues201Handler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp2.0.1': ['MeterValues'] } as const;

  constructor(private readonly meterValues: MeterValuesPublisher) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    const values = payload as MeterValues201;
    await this.meterValues.publish(connection, {
      transactionId: null,
      evseId: values.evseId,
      connectorId: null,
      samples: meterSamples201(values.meterValue),
    });
    return {};
  }
}
