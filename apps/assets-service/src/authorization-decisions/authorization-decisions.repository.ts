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
