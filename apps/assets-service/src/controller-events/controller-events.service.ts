import { Injectable } from '@nestjs/common';
import {
  AssetsSubjects,
  type ControllerEventPage,
  type ControllerEventKind,
  type ListControllerEventsPayload,
  isUuid,
} from '@cpc/contracts';
import { runPagedList, runStatement } from '@cpc/database';
import { NotFoundError } from '@cpc/errors';
import { cursorScope } from '@cpc/pagination';
import { DataSource } from 'typeorm';
import { controllerEventsList, controllerExists } from './controller-events.repository.js';

/** A controller's event log, for the API. */
@Injectable()
export class ControllerEventsService {
  constructor(private readonly dataSource: DataSource) {}

  async list(tenantUuid: string, request: ListControllerEventsPayload): Promise<ControllerEventPage> {
    if (!isUuid(request.uuid)) throw new NotFoundError('controller');
    const [exists] = await runStatement(this.dataSource, controllerExists, {
      controllerUuid: request.uuid,
      tenantUuid,
    });
    if (!exists) throw new NotFoundError('controller');
    const filter = {
      tenantUuid,
      controllerUuid: request.uuid,
      kind: request.filter.kind ?? null,
      occurredFrom: request.filter.occurred_from ?? null,
      occurredTo: request.filter.occurred_to ?? null,
    };
    const scope = cursorScope(AssetsSubjects.listControllerEvents, tenantUuid, {
      controller: request.uuid,
      filter: request.filter,
    });
    const { rows, pagination } = await runPagedList(
      this.dataSource,
      controllerEventsList,
      filter,
      request,
      scope,
    );
    return {
      items: rows.map((row) => ({
        uuid: row.uuid,
        kind: row.kind as ControllerEventKind,
        occurred_at: row.occurred_at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        details: row.details,
      })),
      pagination,
    };
  }
}
