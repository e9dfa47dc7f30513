import { sqlStatement } from '@cpc/database';

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
         WHERE x.result <> 'accepted'
           AND EXISTS (SELECT FROM assets.controllers c WHERE c.uuid = x.controller_uuid AND c.tenant_uuid = x.tenant_uuid)
        ON CONFLICT (uuid) DO NOTHING`,
});
