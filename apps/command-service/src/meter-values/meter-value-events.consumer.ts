import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  type EventEnvelope,
  type MeterSample,
  type MeterValuesEvent,
  TelemetryEventSubjects,
  isUuid,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { COMMAND_SERVICE_CONFIG } from '../command-service-config.token.js';
import type { CommandServiceConfig } from '../command-service.config.js';
import { isStorableTime, withoutLeapSecond } from '../charging-sessions/storable-values.js';
import { MeterValueBatchWriter } from './meter-value-batch.writer.js';

/** Durable names cannot hold dots. */
export const METER_VALUES_CONSUMER = 'command-service_meter-values';

const isIdOrNull = (value: unknown) => value === null || (Number.isInteger(value) && (value as number) >= 0);
const isText = (value: unknown, max: number) =>
  typeof value === 'string' && value.length > 0 && value.length <= max;

function isSample(value: unknown): value is MeterSample {
  const sample = value as Partial<MeterSample> | null;
  return (
    typeof sample === 'object' &&
    sample !== null &&
    isStorableTime(sample.sampledAt) &&
    isText(sample.measurand, 100) &&
    (sample.phase === null || isText(sample.phase, 20)) &&
    isText(sample.location, 20) &&
    isText(sample.unit, 50) &&
    isText(sample.context, 50) &&
    typeof sample.value === 'number' &&
    Number.isFinite(sample.value)
  );
}

/**
 * Stores the gateway's meter-value events. Their order does not matter (every sample has its own key, and a session's
 * summary only grows), so many are handled at once and written in batches. An event that is not what the contract
 * says is logged and skipped: redelivering it would fail the same way forever.
 */
@Injectable()
export class MeterValueEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(MeterValueEventsConsumer.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly writer: MeterValueBatchWriter,
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const concurrency = this.config.tuning.meterValueEventsConcurrency;
    await this.bus.consume(
      {
        durableName: METER_VALUES_CONSUMER,
        filterSubject: TelemetryEventSubjects.meterValues,
        concurrency,
        maxAckPending: concurrency * 4,
      },
      (_subject, event) => this.handle(event),
    );
  }

  async handle(event: EventEnvelope<unknown>): Promise<void> {
    const data = (event.data ?? {}) as Partial<MeterValuesEvent['data']>;
    if (
      !isUuid(event.eventId) ||
      !isUuid(event.tenantUuid) ||
      !isUuid(data.controllerUuid) ||
      !(data.transactionId === null || isText(data.transactionId, 36)) ||
      !isIdOrNull(data.evseId) ||
      !isIdOrNull(data.connectorId) ||
      !Array.isArray(data.samples)
    ) {
      this.logger.warn(`ignoring malformed meter values ${String(event.eventId)}`);
      return;
    }
    // A sample at a leap second is stored as of the second after it (JavaScript and PostgreSQL have none).
    const samples = data.samples
      .map((sample: unknown) =>
        typeof sample === 'object' && sample !== null
          ? { ...sample, sampledAt: withoutLeapSecond((sample as Partial<MeterSample>).sampledAt) }
          : sample,
      )
      .filter(isSample);
    if (samples.length < data.samples.length) {
      this.logger.warn(
        `meter values ${event.eventId}: ${data.samples.length - samples.length} malformed sample(s) left out`,
      );
    }
    if (samples.length === 0) return;
    await this.writer.write({
      ...(event as MeterValuesEvent),
      data: { ...(data as MeterValuesEvent['data']), samples },
    });
  }
}
