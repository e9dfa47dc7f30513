import { Inject, Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { runStatement } from '@cpc/database';
import { DataSource } from 'typeorm';
import { countCommandsByStatus } from '../repositories/commands.repository.js';

const STATUSES = ['pending', 'sent', 'accepted', 'rejected', 'timeout', 'failed'] as const;

/**
 * `commands{status}`: how many commands are in each status, counted in the table at scrape time, so it is right
 * whatever changed a status and whichever replica is scraped (every replica reports the same numbers: aggregate
 * with max, not sum).
 */
@Injectable()
export class CommandStatusMetrics {
  constructor(@Inject(Registry) registry: Registry, dataSource: DataSource) {
    const gauge: Gauge<'status'> = new Gauge({
      name: 'commands',
      help: 'Commands by status, across all tenants',
      labelNames: ['status'],
      registers: [registry],
      collect: async () => {
        const rows = await runStatement(dataSource, countCommandsByStatus, {});
        for (const status of STATUSES) {
          gauge.set({ status }, rows.find((row) => row.status === status)?.count ?? 0);
        }
      },
    });
  }
}
