import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { EventEnvelope } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { DeliverySignal } from '../delivery/delivery-signal.js';
import { retryDelayMs } from '../delivery/retry-schedule.js';
import {
  claimParkedEvents,
  type ParkedEventRow,
  recordParkedEventFailure,
  releaseParkedEvent,
} from '../repositories/parked-events.repository.js';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';
import { WebhookEventsConsumer } from './webhook-events.consumer.js';

/**
 * Tries parked events again on the delivery retry schedule (any replica; a claimed one is hidden from the others for
 * the lease): written, one is released and its ordering key moves on; failing for failingDisableAfterMs since it was
 * parked, it fails for good (kept, with its last error, for the operator), and its ordering key moves on as well.
 */
@Injectable()
export class ParkedEventsRetrier implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ParkedEventsRetrier.name);
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly consumer: WebhookEventsConsumer,
    private readonly signal: DeliverySignal,
    @Inject(WEBHOOK_SERVICE_CONFIG) private readonly config: WebhookServiceConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.round = this.round.then(() => this.retryDue());
    }, this.config.tuning.parkedEventPollIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  /** One round: the due parked events, each tried once. */
  async retryDue(): Promise<void> {
    const { tuning } = this.config;
    let parked: ParkedEventRow[];
    try {
      parked = await runStatement(this.dataSource, claimParkedEvents, {
        limit: tuning.parkedEventClaimBatchSize,
        leaseMs: tuning.claimLeaseMs,
      });
    } catch (error) {
      this.logger.warn(`claiming parked events failed, trying again: ${describeError(error)}`);
      return;
    }
    for (const event of parked) await this.retry(event);
  }

  private async retry(parked: ParkedEventRow): Promise<void> {
    const { tuning } = this.config;
    try {
      try {
        const envelope = JSON.parse(parked.envelope) as EventEnvelope<unknown>;
        await this.consumer.handle(parked.subject, envelope, Number(parked.stream_seq));
      } catch (error) {
        const givesUp = Date.now() - parked.created_at.getTime() >= tuning.failingDisableAfterMs;
        await runStatement(this.dataSource, recordParkedEventFailure, {
          streamSeq: parked.stream_seq,
          error: describeError(error),
          nextAttemptAt: givesUp ? null : new Date(Date.now() + retryDelayMs(parked.attempts, tuning)),
        });
        if (givesUp) {
          this.logger.error(
            `parked event at stream sequence ${parked.stream_seq} on ${parked.subject} failed for good: ` +
              describeError(error),
          );
        }
        return;
      }
      await runStatement(this.dataSource, releaseParkedEvent, { streamSeq: parked.stream_seq });
      // Its rows, and the rows its ordering key held back, may go now (its event was acknowledged when it was parked).
      this.signal.wake();
      this.logger.log(`parked event at stream sequence ${parked.stream_seq} written after all`);
    } catch (error) {
      // Its lease runs out and it is tried again.
      this.logger.warn(`parked event at stream sequence ${parked.stream_seq}: ${describeError(error)}`);
    }
  }
}
