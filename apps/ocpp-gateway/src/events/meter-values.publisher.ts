import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type MeterSample, type MeterValuesEvent, TelemetryEventSubjects } from '@cpc/contracts';
import type { ChargePointEventSource } from './charge-point-event.publisher.js';
import { ChargePointEventPublisher, eventIdFrom } from './charge-point-event.publisher.js';

export interface MeterSamplesOf {
  transactionId: string | null;
  evseId: number | null;
  connectorId: number | null;
  samples: MeterSample[];
}

/**
 * Publishes the sampled values of one message (nothing when it carried none). The event id comes from what was sent,
 * so a message the charge point repeats is stored once.
 */
@Injectable()
export class MeterValuesPublisher {
  constructor(private readonly events: ChargePointEventPublisher) {}

  async publish(
    source: ChargePointEventSource & { controllerUuid: string },
    of: MeterSamplesOf,
  ): Promise<void> {
    if (of.samples.length === 0) return;
    const digest = createHash('sha256').update(JSON.stringify(of)).digest('hex');
    await this.events.publish<MeterValuesEvent>(TelemetryEventSubjects.meterValues, source, of, {
      eventId: eventIdFrom(source.controllerUuid, 'meter-values', digest),
    });
  }
}
