import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { HEALTH_INDICATORS, type HealthIndicator } from './health-indicator.js';
import { HealthController } from './health.controller.js';

/** `/health/live` and `/health/ready` over the given indicators (each must be provided elsewhere in the app). */
@Module({})
export class HealthModule {
  static register(indicators: Type<HealthIndicator>[]): DynamicModule {
    return {
      module: HealthModule,
      controllers: [HealthController],
      providers: [
        {
          provide: HEALTH_INDICATORS,
          useFactory: (...instances: HealthIndicator[]) => instances,
          inject: indicators,
        },
      ],
    };
  }
}
