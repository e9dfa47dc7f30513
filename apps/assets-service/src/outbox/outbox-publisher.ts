import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import type { EventEnvelope } from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource, type EntityManager } from 'typeorm';
import { OutboxEventEntity } from '../entities/index.js';

export const OUTBOX_RELAY_INTERVAL_MS = Symbol('OUTBOX_RELAY_INTERVAL_MS');

const BATCH_SIZE = 100;

/**
 * Durable events that must not be lost between a committed change and JetStream: the event is written in the
 * change's transaction, published right after the commit, and deleted once JetStream acknowledged it. What could not
 * be published (NATS down, crash in between) is retried by a periodic relay. JetStream drops repeated publishes of
 * the same event id, so a retry never delivers twice.
 */
@Injectable()
export class OutboxPublisher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxPublisher.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private failing = false;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly eventBus: JetStreamEventBus,
    @Inject(OUTBOX_RELAY_INTERVAL_MS) private readonly intervalMs: number,
  ) {}

  /** Writes the event inside the caller's transaction. */
  async enqueue<TData>(
    manager: EntityManager,
    subject: string,
    envelope: EventEnvelope<TData>,
  ): Promise<void> {
    await manager.insert(OutboxEventEntity, {
      eventId: envelope.eventId,
      tenantUuid: envelope.tenantUuid,
      subject,
      envelope,
      createdAt: new Date(),
    });
  }

  /** Publishes what is pending; failures are logged and left for the relay. */
  async publishPending(): Promise<void> {
    // One run at a time per process; a caller arriving during a run waits for it and then runs again.
    const previous = this.running ?? Promise.resolve();
    const run = previous
      .then(() => this.publishBatches())
      .then(() => {
        if (this.failing) this.logger.log('outbox: publishing works again');
        this.failing = false;
      })
      .catch((error: unknown) => {
        // Said once per outage, not on every retry.
        if (!this.failing) {
          this.logger.warn(
            `outbox: publishing failed, will retry: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        this.failing = true;
      });
    this.running = run;
    await run;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (!this.stopped) void this.publishPending();
    }, this.intervalMs);
    this.timer.unref();
    void this.publishPending();
  }

  /** Before the database and NATS connections close. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async publishBatches(): Promise<void> {
    for (;;) {
      const published = await this.dataSource.transaction(async (manager) => {
        // SKIP LOCKED: replicas relay side by side without publishing the same rows at the same moment.
        const rows = await manager
          .createQueryBuilder(OutboxEventEntity, 'event')
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .orderBy('event.createdAt', 'ASC')
          .limit(BATCH_SIZE)
          .getMany();
        for (const row of rows) {
          await this.eventBus.publish(row.subject, row.envelope as EventEnvelope<unknown>);
          await manager.delete(OutboxEventEntity, { eventId: row.eventId });
        }
        return rows.length;
      });
      if (published < BATCH_SIZE) return;
    }
  }
}
