import { Injectable } from '@nestjs/common';
import {
  ChargingSessionSubjects,
  type ListMeterValuesPayload,
  type MeterValuePage,
  isUuid,
} from '@cpc/contracts';
import { runPagedList, runStatement } from '@cpc/database';
import { NotFoundError } from '@cpc/errors';
import { cursorScope } from '@cpc/pagination';
import { DataSource } from 'typeorm';
import { findChargingSessionSamples } from '../repositories/charging-sessions.repository.js';
import { sessionMeterValuesList } from '../repositories/meter-values.repository.js';

/** A charging session's meter values, for the API. */
@Injectable()
export class MeterValuesService {
  constructor(private readonly dataSource: DataSource) {}

  async listOfSession(tenantUuid: string, request: ListMeterValuesPayload): Promise<MeterValuePage> {
    if (!isUuid(request.uuid)) {
      throw new NotFoundError('charging session');
    }
    // Its transaction id's values in its range: the id may have other sessions (the charge point used it again).
    const [session] = await runStatement(this.dataSource, findChargingSessionSamples, {
      tenantUuid,
      uuid: request.uuid,
    });
    if (!session) throw new NotFoundError('charging session');
    const filter = {
      tenantUuid,
      controllerUuid: session.controller_uuid,
      transactionId: session.ocpp_transaction_id,
      samplesFrom: session.samples_from,
      samplesTo: session.samples_to,
      measurand: request.filter.measurand ?? null,
      sampledFrom: request.filter.sampled_from ?? null,
      sampledTo: request.filter.sampled_to ?? null,
    };
    const scope = cursorScope(ChargingSessionSubjects.listMeterValues, tenantUuid, {
      session: request.uuid,
      filter: request.filter,
    });
    const { rows, pagination } = await runPagedList(
      this.dataSource,
      sessionMeterValuesList,
      filter,
      request,
      scope,
    );
    return {
      items: rows.map((row) => ({
        sampled_at: row.sampled_at.toISOString().replace(/\.000Z$/, 'Z'),
        measurand: row.measurand,
        phase: row.phase,
        location: row.location,
        unit: row.unit,
        context: row.context,
        value: row.value,
        evse_id: row.evse_id,
        connector_id: row.connector_id,
      })),
      pagination,
    };
  }
}
