import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  type ChargePointReportEvent,
  ChargePointEventSubjects,
  type EventEnvelope,
  type OcppCallCompletedEvent,
  OcppCallEventSubjects,
  UUID_PATTERN,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { ocppIdFromCommandUuid } from '@cpc/ocpp-commands';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { fromChangedSettings, fromGetConfiguration, fromGetVariables } from './configuration-entries.js';
import { LocalListsService } from '../local-lists/local-lists.service.js';
import { ControllerConfigurationService } from './controller-configuration.service.js';

/** Durable names cannot hold dots. */
export const CONFIGURATION_ANSWERS_CONSUMER = 'assets-service_ocpp-call-answers';
export const CONFIGURATION_REPORTS_CONSUMER = 'assets-service_charge-point-reports';

/** The envelope fields every configuration event needs, checked. */
function reportOf(event: EventEnvelope<unknown>) {
  const data = (event.data ?? {}) as { controllerUuid?: unknown };
  const reportedAt = new Date(event.occurredAt);
  if (
    typeof event.tenantUuid !== 'string' ||
    !UUID_PATTERN.test(event.tenantUuid) ||
    typeof data.controllerUuid !== 'string' ||
    !UUID_PATTERN.test(data.controllerUuid) ||
    Number.isNaN(reportedAt.getTime())
  ) {
    return null;
  }
  return { tenantUuid: event.tenantUuid, controllerUuid: data.controllerUuid, reportedAt };
}

/**
 * Feeds ControllerConfigurationService from the event stream: the gateway's call-completed events (the answers to
 * GetConfiguration, GetVariables, GetBaseReport, ChangeConfiguration, SetVariables; and SendLocalList, whose Accepted
 * records the controller's local list in LocalListsService) and the parts of 2.0.1 NotifyReports. Both durable, in stream order;
 * every write is idempotent, so a redelivered event changes nothing.
 */
@Injectable()
export class ControllerConfigurationConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ControllerConfigurationConsumer.name);

  constructor(
    private readonly eventBus: JetStreamEventBus,
    private readonly configuration: ControllerConfigurationService,
    private readonly localLists: LocalListsService,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const options = { retryDelayMs: this.tuning.chargePointStateRetryDelayMs };
    await this.eventBus.consume(
      {
        ...options,
        durableName: CONFIGURATION_ANSWERS_CONSUMER,
        filterSubject: OcppCallEventSubjects.completed,
      },
      (_subject, event) => this.answered(event as OcppCallCompletedEvent),
    );
    await this.eventBus.consume(
      {
        ...options,
        durableName: CONFIGURATION_REPORTS_CONSUMER,
        filterSubject: ChargePointEventSubjects.report,
      },
      (_subject, event) => this.reported(event as ChargePointReportEvent),
    );
  }

  async answered(event: OcppCallCompletedEvent): Promise<void> {
    const report = reportOf(event);
    const { reply, commandUuid } = event.data ?? {};
    if (!report || reply?.outcome !== 'answered' || typeof commandUuid !== 'string') return;
    switch (reply.action) {
      case 'GetConfiguration':
        return this.configuration.store(
          { ...report, message: 'GetConfiguration', commandUuid },
          fromGetConfiguration(reply.response),
        );
      case 'GetVariables':
        return this.configuration.store(
          { ...report, message: 'GetVariables', commandUuid },
          fromGetVariables(reply.response),
        );
      case 'ChangeConfiguration':
      case 'SetVariables':
        return this.configuration.store(
          { ...report, message: reply.action, commandUuid },
          fromChangedSettings(reply.settings),
        );
      case 'SendLocalList':
        // A reply without the count (from a gateway before parts) answered one SendLocalList.
        return this.localLists.answered(
          report.tenantUuid,
          commandUuid,
          reply.localListPartsAccepted ?? (reply.status === 'accepted' ? 1 : 0),
          true,
        );
      case 'GetBaseReport':
        if (reply.status !== 'accepted') return;
        return this.configuration.rememberRequest(report, ocppIdFromCommandUuid(commandUuid), commandUuid);
      default:
        return;
    }
  }

  async reported(event: ChargePointReportEvent): Promise<void> {
    const report = reportOf(event);
    const data = event.data;
    if (!report || !Number.isInteger(data.requestId) || !Number.isInteger(data.seqNo) || data.seqNo < 0) {
      this.logger.warn(`ignoring malformed report event ${String(event.eventId)}`);
      return;
    }
    await this.configuration.addReportPart(report, {
      requestId: data.requestId,
      seqNo: data.seqNo,
      tbc: data.tbc === true,
      reportData: Array.isArray(data.reportData) ? data.reportData : [],
    });
  }
}
