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
import { isDataException, isIntegrityConstraintViolation, runPagedList, runStatement } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { cursorScope } from '@cpc/pagination';
import { JetStreamEventBus } from '@cpc/nats';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { isTextOfAtMost, truncateCodePoints } from '../shared/text-limits.js';
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

/** The columns' varchar lengths: a longer value fails the INSERT it shares with other events' decisions. */
const LIMITS = { idToken: 36, type: 20, result: 24, reason: 32, messageKind: 24 } as const;

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
        Number.isNaN(Date.parse(decision.decidedAt)) ||
        !isTextOfAtMost(decision.result, LIMITS.result) ||
        !isTextOfAtMost(decision.reason, LIMITS.reason) ||
        !isTextOfAtMost(decision.messageKind, LIMITS.messageKind) ||
        !(decision.type === undefined || decision.type === null || isTextOfAtMost(decision.type, LIMITS.type))
      ) {
        this.logger.warn(`ignoring a malformed authorization decision in event ${String(event.eventId)}`);
        return [];
      }
      return [
        {
          uuid: decision.decisionUuid,
          tenant_uuid: event.tenantUuid,
          id_token: truncateCodePoints(decision.idToken, LIMITS.idToken),
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

  /**
   * The decisions, and the refusals among them in their controllers' event logs, in one transaction. A group the
   * database refuses for a value (a data or integrity error) goes again one decision at a time: a decision refused
   * alone is logged and dropped, since it would be refused again on every redelivery, and the events that merely
   * shared its INSERT are stored.
   */
  private async insert(group: GroupedCall<DecisionRow, void>[]): Promise<void> {
    try {
      await this.write(group.map((call) => call.item));
    } catch (error) {
      if (!isRefusedValue(error)) throw error;
      for (const call of group) {
        try {
          if (group.length > 1) await this.write([call.item]);
          else throw error;
        } catch (rowError) {
          if (!isRefusedValue(rowError)) {
            call.reject(rowError);
            continue;
          }
          this.logger.warn(
            `dropping authorization decision ${String(call.item.uuid)}: ${describeError(rowError)}`,
          );
        }
        call.resolve();
      }
      return;
    }
    for (const call of group) call.resolve();
  }

  private async write(rows: readonly DecisionRow[]): Promise<void> {
    const decisions = JSON.stringify(rows);
    await this.dataSource.transaction(async (manager) => {
      await runStatement(manager, insertAuthorizationDecisions, { decisions });
      await runStatement(manager, logAuthorizationRefusals, { decisions });
    });
  }
}

/** A value the database refuses (a data exception or an integrity violation): refused again on every try. */
function isRefusedValue(error: unknown): boolean {
  return isDataException(error) || isIntegrityConstraintViolation(error);
}
