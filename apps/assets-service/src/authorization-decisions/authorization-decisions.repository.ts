import type { AuthorizationDecisionView } from '@cpc/contracts';
import { pagedListStatements, sqlStatement } from '@cpc/database';
import { controllerOfRowExists } from '../controller-events/controller-events.repository.js';

/** Stores decisions (a JSON array of rows); one already stored (a redelivered event) is left as it is. */
export const insertAuthorizationDecisions = sqlStatement<{ decisions: string }>({
  name: 'authorization-decisions.insert',
  parameters: ['decisions'],
  sql: `INSERT INTO assets.authorization_decisions (uuid, tenant_uuid, id_token, type, id_token_uuid, controller_uuid,
                                                    location_uuid, result, reason, message_kind, decided_at)
        SELECT x.uuid, x.tenant_uuid, x.id_token, x.type, x.id_token_uuid, x.controller_uuid, x.location_uuid,
               x.result, x.reason, x.message_kind, x.decided_at
          FROM jsonb_to_recordset(:decisions::jsonb) AS x(uuid uuid, tenant_uuid uuid, id_token text, type text,
               id_token_uuid uuid, controller_uuid uuid, location_uuid uuid, result text, reason text,
               message_kind text, decided_at timestamptz)
        ON CONFLICT (uuid) DO NOTHING`,
});

/**
 * The refusals among stored decisions (a JSON array of rows) as entries of their controllers' event logs; a controller
 * that is gone, or an entry already there, is skipped.
 */
export const logAuthorizationRefusals = sqlStatement<{ decisions: string }>({
  name: 'authorization-decisions.log-refusals',
  parameters: ['decisions'],
  sql: `INSERT INTO assets.controller_events (uuid, tenant_uuid, controller_uuid, kind, occurred_at, details)
        SELECT x.uuid, x.tenant_uuid, x.controller_uuid, 'authorization_refused', x.decided_at,
               jsonb_build_object('id_token', x.id_token, 'result', x.result, 'reason', x.reason,
                                  'message_kind', x.message_kind)
          FROM jsonb_to_recordset(:decisions::jsonb) AS x(uuid uuid, tenant_uuid uuid, id_token text,
               controller_uuid uuid, result text, reason text, message_kind text, decided_at timestamptz)
               ${controllerOfRowExists('x.controller_uuid', 'x.tenant_uuid')}
         WHERE x.result <> 'accepted'
        ON CONFLICT (uuid) DO NOTHING`,
});

/** The log's filters: each one null (not asked for) or matched; `decidedTo` is exclusive, `idToken` case-insensitive. */
export interface AuthorizationDecisionsFilter {
  tenantUuid: string;
  idToken: string | null;
  controllerUuid: string | null;
  result: string | null;
  decidedFrom: string | null;
  decidedTo: string | null;
}

const DECISIONS = `FROM assets.authorization_decisions
        WHERE tenant_uuid = :tenantUuid
          AND (:idToken::text IS NULL OR lower(id_token) = lower(:idToken::text))
          AND (:controllerUuid::uuid IS NULL OR controller_uuid = :controllerUuid::uuid)
          AND (:result::text IS NULL OR result = :result::text)
          AND (:decidedFrom::timestamptz IS NULL OR decided_at >= :decidedFrom::timestamptz)
          AND (:decidedTo::timestamptz IS NULL OR decided_at < :decidedTo::timestamptz)`;

const FILTER_PARAMETERS = [
  'tenantUuid',
  'idToken',
  'controllerUuid',
  'result',
  'decidedFrom',
  'decidedTo',
] as const;

export type AuthorizationDecisionRow = Omit<AuthorizationDecisionView, 'decided_at'> & { decided_at: Date };

const SELECT =
  'uuid, id_token, type, id_token_uuid, controller_uuid, location_uuid, result, reason, message_kind, decided_at';

/**
 * The log newest first (ties by uuid), by page number or by cursor: the order of authorization_decisions_tenant_time_idx,
 * so a page by cursor starts in the index at its key.
 */
export const newestDecisionsList = pagedListStatements<
  AuthorizationDecisionsFilter,
  AuthorizationDecisionRow
>({
  name: 'authorization-decisions.list-newest-first',
  select: SELECT,
  from: DECISIONS,
  filterParameters: FILTER_PARAMETERS,
  key: [
    { column: 'decided_at', parameter: 'cursorAt', type: 'timestamptz', order: 'DESC' },
    { column: 'uuid', parameter: 'cursorUuid', type: 'uuid', order: 'ASC' },
  ],
});

/** The log oldest first (`order_by=+decided_at`): the same index read backwards. */
export const oldestDecisionsList = pagedListStatements<
  AuthorizationDecisionsFilter,
  AuthorizationDecisionRow
>({
  name: 'authorization-decisions.list-oldest-first',
  select: SELECT,
  from: DECISIONS,
  filterParameters: FILTER_PARAMETERS,
  key: [
    { column: 'decided_at', parameter: 'cursorAt', type: 'timestamptz', order: 'ASC' },
    { column: 'uuid', parameter: 'cursorUuid', type: 'uuid', order: 'DESC' },
  ],
});

/** For the SQL snapshots. */
export const AUTHORIZATION_DECISIONS_STATEMENTS = [
  insertAuthorizationDecisions,
  logAuthorizationRefusals,
  ...newestDecisionsList.all,
  ...oldestDecisionsList.all,
];
