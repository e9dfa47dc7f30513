import { type DynamicModule, Module } from '@nestjs/common';
import { COMMAND_SERVICE_CONFIG } from '../command-service-config.token.js';
import type { CommandServiceConfig } from '../command-service.config.js';
import { MeterValueBatchWriter } from './meter-value-batch.writer.js';
import { MeterValueEventsConsumer } from './meter-value-events.consumer.js';
import { MeterValuePartitions } from './meter-value-partitions.js';
import { MeterValuesHandler } from './meter-values.handler.js';
import { MeterValuesService } from './meter-values.service.js';

/** Meter values: stored from the gateway's telemetry events in monthly partitions, read per charging session. */
@Module({})
export class MeterValuesModule {
  static register(config: CommandServiceConfig): DynamicModule {
    return {
      module: MeterValuesModule,
      controllers: [MeterValuesHandler],
      providers: [
        { provide: COMMAND_SERVICE_CONFIG, useValue: config },
        MeterValuePartitions,
        MeterValueBatchWriter,
        MeterValueEventsConsumer,
        MeterValuesService,
      ],
    };
  }
}
