import { Injectable } from '@nestjs/common';
import { type ChargePointReportEvent, ChargePointEventSubjects } from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointEventPublisher, eventIdFrom } from '../events/charge-point-event.publisher.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';
import { utcTime } from './ocpp-time.js';

interface NotifyReport {
  requestId: number;
  generatedAt: string;
  seqNo: number;
  tbc?: boolean;
  reportData?: unknown[];
}

/** The parts of a 2.0.1 device-model report (refresh_configuration → GetBaseReport / GetReport), one event each. */
@Injectable()
export class NotifyReportHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp2.0.1': ['NotifyReport'] } as const;

  constructor(private readonly events: ChargePointEventPublisher) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    const report = payload as NotifyReport;
    await this.events.publish<ChargePointReportEvent>(
      ChargePointEventSubjects.report,
      connection,
      {
        requestId: report.requestId,
        seqNo: report.seqNo,
        tbc: report.tbc ?? false,
        generatedAt: utcTime(report.generatedAt),
        reportData: report.reportData ?? [],
      },
      {
        eventId: eventIdFrom(
          connection.controllerUuid,
          'report',
          report.requestId,
          report.generatedAt,
          report.seqNo,
        ),
      },
    );
    return {};
  }
}
