import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { HealthIndicator, HealthIndicatorResult } from '@cpc/health';
import { describeError } from '@cpc/errors';

@Injectable()
export class DatabaseHealthIndicator implements HealthIndicator {
  readonly name = 'database';

  constructor(private readonly dataSource: DataSource) {}

  async check(): Promise<HealthIndicatorResult> {
    try {
      await this.dataSource.query('SELECT 1');
      return { healthy: true };
    } catch (error) {
      return { healthy: false, detail: describeError(error) };
    }
  }
}
