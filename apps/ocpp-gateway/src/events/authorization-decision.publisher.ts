import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type AuthorizationDecisionEvent, AuthorizationSubjects } from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { JetStreamEventBus } from '@cpc/nats';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/**
 * Publishes every authorization decision on the event stream without holding the answer to the charge point back:
 * `record` queues the event and returns; up to `decisionPublishesInFlight` publishes wait for JetStream's ack at
 * once. A publish that fails (NATS away) is retried, with the event's own id, so JetStream stores it once. Only
 * past `decisionQueueLimit` waiting events (a long broker outage) are the oldest dropped, with a warning.
 */
@Injectable()
export class AuthorizationDecisionPublisher implements OnApplicationShutdown {
  private readonly logger = new Logger(AuthorizationDecisionPublisher.name);
  private readonly queue: AuthorizationDecisionEvent[] = [];
  private inFlight = 0;
  private dropped = 0;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bus: JetStreamEventBus,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  record(tenantUuid: string, data: AuthorizationDecisionEvent['data']): void {
    if (this.queue.length >= this.config.tuning.decisionQueueLimit) {
      this.queue.shift();
      this.dropped += 1;
      if (this.dropped === 1 || this.dropped % 1000 === 0) {
        this.logger.warn(
          `${this.dropped} authorization decisions dropped: the event stream is not reachable`,
        );
      }
    }
    this.queue.push({ eventId: randomUUID(), occurredAt: new Date().toISOString(), tenantUuid, data });
    this.pump();
  }

  /** Waiting events and publishes not yet acknowledged. */
  get pending(): number {
    return this.queue.length + this.inFlight;
  }

  private pump(): void {
    while (this.retryTimer === undefined && this.inFlight < this.config.tuning.decisionPublishesInFlight) {
      const event = this.queue.shift();
      if (!event) return;
      this.inFlight += 1;
      this.bus.publish(AuthorizationSubjects.decisionMade, event).then(
        () => {
          this.inFlight -= 1;
          this.pump();
        },
        (error: unknown) => {
          this.inFlight -= 1;
          this.queue.unshift(event);
          if (this.retryTimer === undefined) {
            this.logger.warn(`publishing authorization decisions failed, retrying: ${describeError(error)}`);
            this.retryTimer = setTimeout(() => {
              this.retryTimer = undefined;
              this.pump();
            }, this.config.tuning.decisionRetryDelayMs);
          }
        },
      );
    }
  }

  /** Gives the queue the shutdown grace to empty. */
  async onApplicationShutdown(): Promise<void> {
    const deadline = Date.now() + this.config.shutdownGraceMs;
    while (this.pending > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    clearTimeout(this.retryTimer);
  }
}
