import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { runStatement } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { repeatInBackground } from '@cpc/service-runtime';
import { DataSource, type EntityManager } from 'typeorm';
import { COMMAND_SERVICE_CONFIG } from '../command-service-config.token.js';
import type { CommandServiceConfig } from '../command-service.config.js';
import {
  attachedPartitions,
  createMonthPartition,
  deleteExpiredDefaultRows,
  dropMonthPartition,
  lockPartitionMaintenance,
} from '../repositories/meter-value-partitions.repository.js';

const PARTITION_NAME = /^meter_values_p(\d{4})_(\d{2})$/;

/** A month as the number of months since year 0, so months add and compare as integers. */
function monthIndex(date: Date): number {
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

function monthStart(index: number): string {
  return new Date(Date.UTC(Math.floor(index / 12), index % 12, 1)).toISOString();
}

function partitionName(index: number): string {
  return `meter_values_p${Math.floor(index / 12)}_${String((index % 12) + 1).padStart(2, '0')}`;
}

export interface PartitionChanges {
  created: string[];
  dropped: string[];
}

/**
 * Keeps control.meter_values partitioned by month: the months from last month to `meterValuePartitionsAhead` ahead
 * exist (rows the default partition holds for a month are moved into it when it is created), and the months older
 * than the retention are dropped whole, which costs nothing like a DELETE would. Every instance runs it at start and
 * then periodically; an advisory lock lets one at a time decide.
 */
@Injectable()
export class MeterValuePartitions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MeterValuePartitions.name);
  private stopRepeating: (() => void) | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.maintain();
    this.stopRepeating = repeatInBackground({
      everyMs: this.config.tuning.meterValuePartitionCheckMs,
      task: () => this.maintain(),
      onError: (error) => this.logger.error(`meter value partitions not maintained: ${describeError(error)}`),
    });
  }

  onApplicationShutdown(): void {
    this.stopRepeating?.();
  }

  async maintain(now: Date = new Date()): Promise<PartitionChanges> {
    const current = monthIndex(now);
    const oldestKept = current - this.config.meterValueRetentionMonths + 1;
    const wanted: number[] = [];
    for (
      let month = Math.max(current - 1, oldestKept);
      month <= current + this.config.tuning.meterValuePartitionsAhead;
      month++
    ) {
      wanted.push(month);
    }
    const changes = await this.dataSource.transaction(async (manager) => {
      await runStatement(manager, lockPartitionMaintenance, {});
      const existing = await this.existingMonths(manager);
      const created: string[] = [];
      for (const month of wanted.filter((month) => !existing.has(month))) {
        await this.createMonth(manager, month);
        created.push(partitionName(month));
      }
      const dropped: string[] = [];
      for (const month of [...existing].filter((month) => month < oldestKept)) {
        await runStatement(manager, dropMonthPartition(partitionName(month)), {});
        dropped.push(partitionName(month));
      }
      await runStatement(manager, deleteExpiredDefaultRows, { before: monthStart(oldestKept) });
      return { created, dropped };
    });
    if (changes.created.length + changes.dropped.length > 0) {
      this.logger.log(
        `meter value partitions: created ${changes.created.join(', ') || 'none'}; dropped ${changes.dropped.join(', ') || 'none'}`,
      );
    }
    return changes;
  }

  private async existingMonths(manager: EntityManager): Promise<Set<number>> {
    const rows = await runStatement(manager, attachedPartitions, {});
    const months = new Set<number>();
    for (const { relname } of rows) {
      const match = PARTITION_NAME.exec(relname);
      if (match) months.add(Number(match[1]) * 12 + Number(match[2]) - 1);
    }
    return months;
  }

  private async createMonth(manager: EntityManager, month: number): Promise<void> {
    const bounds = { from: monthStart(month), to: monthStart(month + 1) };
    const partition = createMonthPartition({ table: partitionName(month), ...bounds });
    await runStatement(manager, partition.create, {});
    await runStatement(manager, partition.moveDefaultRows, bounds);
    await runStatement(manager, partition.attach, {});
  }
}
