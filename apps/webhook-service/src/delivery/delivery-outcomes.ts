import { Inject, Injectable } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { runStatement } from '@cpc/database';
import { DataSource } from 'typeorm';
import { type DeliveryOutcome, recordOutcomes } from '../repositories/deliveries.repository.js';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';

/**
 * Writes the outcomes of attempts group-committed: the outcomes that arrive while tuning.outcomeWritesInFlight
 * statements are running go together into the next one (recordOutcomes: one statement, one commit). A call resolves
 * once its outcome is committed, so the worker claims the next row of a queue only after the previous one's outcome
 * is stored; a statement that fails fails all its calls, and their rows come back when their leases end (same
 * `webhook-id`): at least once, as with one statement each.
 */
@Injectable()
export class DeliveryOutcomes {
  private readonly writes: GroupedCalls<DeliveryOutcome, Date | null>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(WEBHOOK_SERVICE_CONFIG) config: WebhookServiceConfig,
  ) {
    this.writes = new GroupedCalls<DeliveryOutcome, Date | null>((group) => this.write(group), {
      maxInFlight: config.tuning.outcomeWritesInFlight,
      maxGroup: config.tuning.outcomeBatchSize,
    });
  }

  /** A 2xx answer to attempt `attempts` (as its claim counted it): the delivery is done. */
  async delivered(id: string, attempts: number, statusCode: number): Promise<void> {
    await this.writes.call({
      id,
      attempts,
      delivered: true,
      status_code: statusCode,
      error: null,
      next_attempt_at: null,
    });
  }

  /**
   * A failed attempt, tried again at `nextAttemptAt`; resolves with the start of its subscription's failing streak
   * (null when the row was no longer pending or at that attempt, or the streak is unknown).
   */
  failed(
    id: string,
    attempts: number,
    statusCode: number | null,
    error: string,
    nextAttemptAt: Date,
  ): Promise<Date | null> {
    return this.writes.call({
      id,
      attempts,
      delivered: false,
      status_code: statusCode,
      error,
      next_attempt_at: nextAttemptAt.toISOString(),
    });
  }

  private async write(group: GroupedCall<DeliveryOutcome, Date | null>[]): Promise<void> {
    const rows = await runStatement(this.dataSource, recordOutcomes, {
      outcomes: JSON.stringify(group.map((call) => call.item)),
    });
    const failingSince = new Map(rows.map((row) => [row.id, row.failing_since]));
    for (const call of group) {
      const since = failingSince.get(call.item.id);
      call.resolve(since === undefined || since === null ? null : new Date(since));
    }
  }
}
