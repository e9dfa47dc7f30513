import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  type AuthorizationDecisionRecord,
  type AuthorizationDecisionsEvent,
  AuthorizationSubjects,
} from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { JetStreamEventBus } from '@cpc/nats';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/** The part of the event bus the publisher needs. */
export interface DecisionEventSink {
  publish(subject: string, event: AuthorizationDecisionsEvent): Promise<void>;
}

export type DecisionToRecord = Omit<AuthorizationDecisionRecord, 'decisionUuid' | 'decidedAt'>;

/**
 * Publishes every authorization decision on the event stream without holding the answer to the charge point back.
 * `record` queues the decision and returns; decisions gather for `decisionBatchDelayMs` (or until
 * `decisionBatchSize` wait) and leave as one event per tenant, so a busy gateway publishes a few events a second
 * instead of one per Authorize. A publish that fails (NATS away) is retried with the same event id, so JetStream
 * stores it once. Only past `decisionQueueLimit` waiting decisions (a long broker outage) are the oldest dropped,
 * with a warning.
 */
@Injectable()
export class AuthorizationDecisionPublisher implements OnApplicationShutdown {
  private readonly logger = new Logger(AuthorizationDecisionPublisher.name);
  /** Decisions not yet in an event, oldest first. */
  private readonly gathering: { tenantUuid: string; decision: AuthorizationDecisionRecord }[] = [];
  /** Events formed and waiting to be published (again, after a failure), oldest first. */
  private readonly formed: AuthorizationDecisionsEvent[] = [];
  private inFlightEvents = 0;
  private inFlightDecisions = 0;
  private dropped = 0;
  private gatherTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly bus: DecisionEventSink;

  constructor(
    bus: JetStreamEventBus,
    @Inject(OCPP_GATEWAY_CONFIG)
    private readonly config: Pick<OcppGatewayConfig, 'tuning' | 'shutdownGraceMs'>,
  ) {
    this.bus = bus;
  }

  record(tenantUuid: string, decision: DecisionToRecord): void {
    if (this.waiting >= this.config.tuning.decisionQueueLimit) this.dropOldest();
    this.gathering.push({
      tenantUuid,
      decision: { decisionUuid: randomUUID(), decidedAt: new Date().toISOString(), ...decision },
    });
    if (this.gathering.length >= this.config.tuning.decisionBatchSize) this.formEvents();
    else this.gatherTimer ??= setTimeout(() => this.formEvents(), this.config.tuning.decisionBatchDelayMs);
  }

  /** Decisions not yet acknowledged by the event stream. */
  get pending(): number {
    return this.waiting + this.inFlightDecisions;
  }

  private get waiting(): number {
    return this.gathering.length + this.formed.reduce((sum, event) => sum + event.data.decisions.length, 0);
  }

  private dropOldest(): void {
    const before = this.dropped;
    const oldestEvent = this.formed.shift();
    if (oldestEvent) this.dropped += oldestEvent.data.decisions.length;
    else if (this.gathering.shift()) this.dropped += 1;
    if (before === 0 || Math.floor(before / 1000) !== Math.floor(this.dropped / 1000)) {
      this.logger.warn(`${this.dropped} authorization decisions dropped: the event stream is not reachable`);
    }
  }

  /** Everything gathered becomes events of at most `decisionBatchSize` decisions, one tenant each. */
  private formEvents(): void {
    clearTimeout(this.gatherTimer);
    this.gatherTimer = undefined;
    const byTenant = new Map<string, AuthorizationDecisionRecord[]>();
    for (const { tenantUuid, decision } of this.gathering.splice(0)) {
      const decisions = byTenant.get(tenantUuid) ?? [];
      decisions.push(decision);
      byTenant.set(tenantUuid, decisions);
    }
    const size = this.config.tuning.decisionBatchSize;
    for (const [tenantUuid, decisions] of byTenant) {
      for (let start = 0; start < decisions.length; start += size) {
        this.formed.push({
          eventId: randomUUID(),
          occurredAt: new Date().toISOString(),
          tenantUuid,
          data: { decisions: decisions.slice(start, start + size) },
        });
      }
    }
    this.pump();
  }

  private pump(): void {
    while (
      this.retryTimer === undefined &&
      this.inFlightEvents < this.config.tuning.decisionPublishesInFlight
    ) {
      const event = this.formed.shift();
      if (!event) return;
      const count = event.data.decisions.length;
      this.inFlightEvents += 1;
      this.inFlightDecisions += count;
      const settle = (): void => {
        this.inFlightEvents -= 1;
        this.inFlightDecisions -= count;
      };
      this.bus.publish(AuthorizationSubjects.decisionsMade, event).then(
        () => {
          settle();
          this.pump();
        },
        (error: unknown) => {
          settle();
          this.formed.unshift(event);
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

  /** Publishes what is gathered at once and gives the queue the shutdown grace to empty. */
  async onApplicationShutdown(): Promise<void> {
    this.formEvents();
    const deadline = Date.now() + this.config.shutdownGraceMs;
    while (this.pending > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    clearTimeout(this.retryTimer);
  }
}
