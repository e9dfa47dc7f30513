import { Inject, Injectable } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { runStatement } from '@cpc/database';
import { DataSource, type EntityManager } from 'typeorm';
import { type FanOutItem, fanOutEvents } from '../repositories/deliveries.repository.js';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';

/** What fanning out one event did: the rows it added, and whether a subscription for it filters by location. */
export interface FanOutResult {
  inserted: number;
  location_filtered: boolean;
}

/**
 * Writes events' delivery rows group-committed: the events that arrive while tuning.fanOutWritesInFlight statements
 * are running go together into the next one (fanOutEvents: one statement, one commit). A call resolves once its rows
 * are committed, so its event is acknowledged only then. When a group's statement fails, each of its events is tried
 * again on its own, so an event that cannot be written fails (and is parked) alone, never its neighbours.
 */
@Injectable()
export class DeliveryFanOuts {
  private readonly writes: GroupedCalls<FanOutItem, FanOutResult>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(WEBHOOK_SERVICE_CONFIG) config: WebhookServiceConfig,
  ) {
    this.writes = new GroupedCalls<FanOutItem, FanOutResult>((group) => this.write(group), {
      maxInFlight: config.tuning.fanOutWritesInFlight,
      maxGroup: config.tuning.fanOutBatchSize,
    });
  }

  /** One event's rows, in a statement shared with the events fanned out at the same time. */
  fanOut(item: FanOutItem): Promise<FanOutResult> {
    return this.writes.call(item);
  }

  /** One event's rows in the caller's transaction (with its session mark), in a statement of its own. */
  async fanOutIn(manager: EntityManager, item: FanOutItem): Promise<FanOutResult> {
    const [result] = await this.run(manager, [item]);
    return result;
  }

  private async write(group: GroupedCall<FanOutItem, FanOutResult>[]): Promise<void> {
    if (group.length === 1) {
      group[0].resolve((await this.run(this.dataSource, [group[0].item]))[0]);
      return;
    }
    let results: FanOutResult[];
    try {
      results = await this.run(
        this.dataSource,
        group.map((call) => call.item),
      );
    } catch {
      // One event of the group may be what cannot be written: each on its own, so only it fails.
      for (const call of group) {
        try {
          call.resolve((await this.run(this.dataSource, [call.item]))[0]);
        } catch (error) {
          call.reject(error);
        }
      }
      return;
    }
    group.forEach((call, index) => call.resolve(results[index]));
  }

  /** The results in the order of `items` (an event id given twice answers for both). */
  private async run(runner: DataSource | EntityManager, items: FanOutItem[]): Promise<FanOutResult[]> {
    const rows = await runStatement(runner, fanOutEvents, { events: JSON.stringify(items) });
    const byEvent = new Map(rows.map((row) => [row.event_id, row]));
    return items.map((item) => {
      const row = byEvent.get(item.event_id)!;
      return { inserted: row.inserted, location_filtered: row.location_filtered };
    });
  }
}
