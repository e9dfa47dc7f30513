import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  type EventEnvelope,
  isUuid,
  type OcppCallCompletedEvent,
  OcppCallEventSubjects,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';
import { endingOf } from './call-outcome.js';
import { ReservationsService } from '../../reservations/reservations.service.js';
import { CommandTransitions, type ReportingChargePoint } from './command-transitions.js';

/** Durable names cannot hold dots. */
export const GATEWAY_CALL_EVENTS_CONSUMER = 'command-service_ocpp-calls';

/**
 * The gateway's durable call events: `call-sent` makes a pending command `sent`; `call-completed` ends it, which is
 * how an outcome reaches the database when the instance that asked for the call died waiting for the reply. Both
 * are idempotent through the guarded transitions (a repeat or a late event changes nothing). An event changes a
 * command only when its tenant and charge point are the command's own: one about another tenant's or another charge
 * point's command (misrouted or forged) is logged and dropped. An accepted reserve or cancel_reservation also makes
 * or ends a reservation (ReservationsService), from here only: every answer of a charge point comes as this event,
 * whichever instance asked for it.
 */
@Injectable()
export class GatewayCallEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(GatewayCallEventsConsumer.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly transitions: CommandTransitions,
    private readonly reservations: ReservationsService,
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consume(
      {
        durableName: GATEWAY_CALL_EVENTS_CONSUMER,
        filterSubject: 'events.ocpp-gateway.>',
        concurrency: this.config.tuning.gatewayCallEventsConcurrency,
      },
      (subject, event) => this.handle(subject, event),
    );
  }

  async handle(subject: string, event: EventEnvelope<unknown>): Promise<void> {
    if (subject !== OcppCallEventSubjects.sent && subject !== OcppCallEventSubjects.completed) return;
    const data = (event.data ?? {}) as { commandUuid?: unknown; controllerUuid?: unknown; sentAt?: unknown };
    // Without its tenant and charge point an event cannot be checked against the command: none is taken on trust.
    if (!isUuid(data.commandUuid) || !isUuid(event.tenantUuid) || !isUuid(data.controllerUuid)) {
      this.logger.warn(`ignoring malformed event ${String(event.eventId)} on ${subject}`);
      return;
    }
    const reportedBy: ReportingChargePoint = {
      tenantUuid: event.tenantUuid,
      controllerUuid: data.controllerUuid,
    };
    const sentAt =
      typeof data.sentAt === 'string' && !Number.isNaN(Date.parse(data.sentAt)) ? data.sentAt : null;
    if (subject === OcppCallEventSubjects.sent) {
      const outcome = await this.transitions.reported(data.commandUuid, { sentAt }, reportedBy);
      if (outcome === 'foreign') this.dropForeign(subject, event, data.commandUuid, reportedBy);
      return;
    }
    const ending = endingOf((event as OcppCallCompletedEvent).data.reply, sentAt);
    if (!ending) {
      this.logger.warn(`ignoring call-completed event ${String(event.eventId)} without a final reply`);
      return;
    }
    const outcome = await this.transitions.reported(data.commandUuid, { sentAt, ending }, reportedBy);
    if (outcome === 'foreign') {
      // Nor may it make or end a reservation of that command.
      this.dropForeign(subject, event, data.commandUuid, reportedBy);
      return;
    }
    await this.reservations.recordAnswer(event as OcppCallCompletedEvent);
  }

  private dropForeign(
    subject: string,
    event: EventEnvelope<unknown>,
    commandUuid: string,
    reportedBy: ReportingChargePoint,
  ): void {
    this.logger.warn(
      `dropping event ${String(event.eventId)} on ${subject}: command ${commandUuid} is not of charge point ` +
        `${reportedBy.controllerUuid} of tenant ${reportedBy.tenantUuid}`,
    );
  }
}
