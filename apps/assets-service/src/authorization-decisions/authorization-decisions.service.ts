import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import {
  type AuthorizationDecisionPage,
  type AuthorizationDecisionRecord,
  type AuthorizationDecisionsEvent,
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
export const AUTHORIZATION_DECISIONS_CONSUMER = 'assets-service_authorization-decision-batches';

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
        filterSubject: AuthorizationSubjects.decisionsMade,
        concurrency: this.tuning.decisionsInFlight,
        maxAckPending: this.tuning.decisionsInFlight * 2,
        pullBatchSize: this.tuning.decisionsInFlight,
      },
      (_subject, event) => this.store(event),
    );
  }

  /** Stores the decisions of one event (idempotent: each decision's uuid is its row's key). */
  async store(event: EventEnvelope<unknown>): Promise<void> {
    const decisions = (event.data as Partial<AuthorizationDecisionsEvent['data']> | undefined)?.decisions;
    if (!isUuid(event.tenantUuid) || !Array.isArray(decisions)) {
      this.logger.warn(`ignoring malformed authorization decisions event ${String(event.eventId)}`);
      return;
    }
    const rows = decisions.flatMap((decision: Partial<AuthorizationDecisionRecord>) => {
      if (
        !isUuid(decision.decisionUuid) ||
        !isUuid(decision.controllerUuid) ||
        !isUuid(decision.locationUuid) ||
        typeof decision.idToken !== 'string' ||
        typeof decision.decidedAt !== 'string' ||
        Number.isNaN(Date.parse(decision.decidedAt))
      ) {
        this.logger.warn(`ignoring a malformed authorization decision in event ${String(event.eventId)}`);
        return [];
      }
      return [
        {
          uuid: decision.decisionUuid,
          tenant_uuid: event.tenantUuid,
          id_token: decision.idToken.slice(0, 36),
          type: decision.type ?? null,
          id_token_uuid: isUuid(decision.tokenUuid) ? decision.tokenUuid : null,
          controller_uuid: decision.controllerUuid,
          location_uuid: decision.locationUuid,
          result: decision.result,
          reason: decision.reason,
          message_kind: decision.messageKind,
          decided_at: decision.decidedAt,
        },
      ];
    });
    await Promise.all(rows.map((row) => this.inserts.call(row)));
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
