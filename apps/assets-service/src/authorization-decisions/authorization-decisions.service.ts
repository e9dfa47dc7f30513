import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import {
  type AuthorizationDecisionEvent,
  type AuthorizationDecisionPage,
  AuthorizationSubjects,
  type EventEnvelope,
  isUuid,
  type ListAuthorizationDecisionsPayload,
} from '@cpc/contracts';
import { runPagedList, runStatement } from '@cpc/database';
import { cursorScope } from '@cpc/pagination';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { toIsoSeconds } from '../shared/time-format.js';
import {
  insertAuthorizationDecisions,
  logAuthorizationRefusals,
  newestDecisionsList,
  oldestDecisionsList,
} from './authorization-decisions.repository.js';

/** Durable names cannot hold dots. */
export const AUTHORIZATION_DECISIONS_CONSUMER = 'assets-service_authorization-decisions';

type DecisionRow = Record<string, unknown>;

/**
 * The log of every answer the ocpp-gateways gave about an id token: one durable consumer takes the decision events
 * many at a time, and those arriving together share one INSERT; each event is acknowledged once its INSERT committed.
 */
@Injectable()
export class AuthorizationDecisionsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(AuthorizationDecisionsService.name);
  private readonly inserts: GroupedCalls<DecisionRow, void>;

  constructor(
    private readonly eventBus: JetStreamEventBus,
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {
    this.inserts = new GroupedCalls<DecisionRow, void>((group) => this.insert(group), {
      maxInFlight: tuning.decisionInsertsInFlight,
      maxGroup: tuning.decisionBatchSize,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.eventBus.consume(
      {
        durableName: AUTHORIZATION_DECISIONS_CONSUMER,
        filterSubject: AuthorizationSubjects.decisionMade,
        concurrency: this.tuning.decisionsInFlight,
        maxAckPending: this.tuning.decisionsInFlight * 2,
        pullBatchSize: this.tuning.decisionsInFlight,
      },
      (_subject, event) => this.store(event),
    );
  }

  /** Stores one decision event (idempotent: its event id is the row's key). */
  store(event: EventEnvelope<unknown>): Promise<void> {
    const data = (event.data ?? {}) as Partial<AuthorizationDecisionEvent['data']>;
    if (
      !isUuid(event.eventId) ||
      !isUuid(event.tenantUuid) ||
      !isUuid(data.controllerUuid) ||
      !isUuid(data.locationUuid) ||
      typeof data.idToken !== 'string' ||
      Number.isNaN(Date.parse(event.occurredAt))
    ) {
      this.logger.warn(`ignoring malformed authorization decision ${String(event.eventId)}`);
      return Promise.resolve();
    }
    return this.inserts.call({
      uuid: event.eventId,
      tenant_uuid: event.tenantUuid,
      id_token: data.idToken.slice(0, 36),
      type: data.type ?? null,
      id_token_uuid: isUuid(data.tokenUuid) ? data.tokenUuid : null,
      controller_uuid: data.controllerUuid,
      location_uuid: data.locationUuid,
      result: data.result,
      reason: data.reason,
      message_kind: data.messageKind,
      decided_at: event.occurredAt,
    });
  }

  /**
   * A page of the log, newest first unless order_by says otherwise: numbered (with a count, and cursors to go on from
   * it) or, with `cursor`, read by keyset from the cursor's key, so any page costs what the first does.
   */
  async list(
    tenantUuid: string,
    request: ListAuthorizationDecisionsPayload,
  ): Promise<AuthorizationDecisionPage> {
    const { filter } = request;
    // decided_at is the only sortable field; the first entry decides (repeating it cannot change the order).
    const statements = request.orderBy[0]?.direction === 'asc' ? oldestDecisionsList : newestDecisionsList;
    const scope = cursorScope(AuthorizationSubjects.listDecisions, tenantUuid, {
      filter,
      order: statements.page.name,
    });
    const { rows, pagination } = await runPagedList(
      this.dataSource,
      statements,
      {
        tenantUuid,
        idToken: filter.id_token ?? null,
        controllerUuid: filter.controller_uuid ?? null,
        result: filter.result ?? null,
        decidedFrom: filter.decided_from ?? null,
        decidedTo: filter.decided_to ?? null,
      },
      request,
      scope,
    );
    return { items: rows.map((row) => ({ ...row, decided_at: toIsoSeconds(row.decided_at) })), pagination };
  }

  /** The decisions, and the refusals among them in their controllers' event logs, in one transaction. */
  private async insert(group: GroupedCall<DecisionRow, void>[]): Promise<void> {
    const decisions = JSON.stringify(group.map((call) => call.item));
    await this.dataSource.transaction(async (manager) => {
      await runStatement(manager, insertAuthorizationDecisions, { decisions });
      await runStatement(manager, logAuthorizationRefusals, { decisions });
    });
    for (const call of group) call.resolve();
  }
}
