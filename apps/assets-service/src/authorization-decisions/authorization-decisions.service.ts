import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import {
  type AssetPage,
  type AuthorizationDecisionRecord,
  type AuthorizationDecisionsEvent,
  type AuthorizationDecisionFilter,
  type AuthorizationDecisionSortField,
  type AuthorizationDecisionView,
  AuthorizationSubjects,
  type EventEnvelope,
  isUuid,
  type ListAssetsPayload,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { AuthorizationDecisionEntity } from '../entities/index.js';
import { listPage } from '../shared/asset-listing.js';
import { toIsoSeconds } from '../shared/time-format.js';
import {
  insertAuthorizationDecisions,
  logAuthorizationRefusals,
} from './authorization-decisions.repository.js';

/** Durable names cannot hold dots. */
export const AUTHORIZATION_DECISIONS_CONSUMER = 'assets-service_authorization-decision-batches';

const SORT_COLUMNS: Record<AuthorizationDecisionSortField, string> = { decided_at: 'decision.decidedAt' };

type DecisionRow = Record<string, unknown>;

function toView(decision: AuthorizationDecisionEntity): AuthorizationDecisionView {
  return {
    uuid: decision.uuid,
    id_token: decision.idToken,
    type: decision.type,
    id_token_uuid: decision.idTokenUuid,
    controller_uuid: decision.controllerUuid,
    location_uuid: decision.locationUuid,
    result: decision.result,
    reason: decision.reason,
    message_kind: decision.messageKind,
    decided_at: toIsoSeconds(decision.decidedAt),
  };
}

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

  list(
    tenantUuid: string,
    request: ListAssetsPayload<AuthorizationDecisionFilter, AuthorizationDecisionSortField>,
  ): Promise<AssetPage<AuthorizationDecisionView>> {
    const { filter } = request;
    const query = this.dataSource
      .getRepository(AuthorizationDecisionEntity)
      .createQueryBuilder('decision')
      .where('decision.tenantUuid = :tenantUuid', { tenantUuid });
    if (filter.id_token !== undefined)
      query.andWhere('lower(decision.idToken) = lower(:idToken)', { idToken: filter.id_token });
    if (filter.controller_uuid !== undefined)
      query.andWhere('decision.controllerUuid = :controllerUuid', { controllerUuid: filter.controller_uuid });
    if (filter.result !== undefined) query.andWhere('decision.result = :result', { result: filter.result });
    if (filter.decided_from !== undefined)
      query.andWhere('decision.decidedAt >= :decidedFrom', { decidedFrom: filter.decided_from });
    if (filter.decided_to !== undefined)
      query.andWhere('decision.decidedAt < :decidedTo', { decidedTo: filter.decided_to });
    const orderBy =
      request.orderBy.length > 0
        ? request.orderBy
        : [{ field: 'decided_at' as const, direction: 'desc' as const }];
    return listPage(query, { ...request, orderBy }, SORT_COLUMNS, (rows) => rows.map(toView));
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
