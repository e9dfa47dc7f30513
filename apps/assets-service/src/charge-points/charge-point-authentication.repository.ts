import type { SecurityProfile } from '@cpc/contracts';
import { sqlStatement } from '@cpc/database';

/** What a handshake needs of its controller. */
export interface HandshakeController {
  uuid: string;
  ocppIdentity: string;
  securityProfile: SecurityProfile;
  credentialsVersion: number;
  locationUuid: string;
  /** scrypt hash (see password-hash.ts); null for security profile 0/3 without a password. */
  ocppPasswordHash: string | null;
}

/**
 * The controllers of the handshakes a HandshakeControllerLookup group asks for, in one statement, by the tenant's
 * case-insensitive identity (controllers_tenant_identity_key): the columns the check needs and no entity around them,
 * as every charge point's (re)connect runs it. Each found one comes with the position (from 1) of the look-up it
 * answers, so a look-up is matched to its row without comparing identities outside SQL.
 */
export const findHandshakeControllers = sqlStatement<
  { tenantUuids: string[]; identities: string[] },
  HandshakeController & { position: string }
>({
  name: 'charge-point-authentication.find-controllers',
  parameters: ['tenantUuids', 'identities'],
  sql: `SELECT wanted.position, controller.uuid, controller.ocpp_identity AS "ocppIdentity",
               controller.security_profile AS "securityProfile", controller.credentials_version AS "credentialsVersion",
               controller.location_uuid AS "locationUuid", controller.ocpp_password_hash AS "ocppPasswordHash"
          FROM unnest(:tenantUuids::uuid[], :identities::text[]) WITH ORDINALITY AS wanted(tenant_uuid, identity, position)
          JOIN assets.controllers controller
            ON controller.tenant_uuid = wanted.tenant_uuid AND lower(controller.ocpp_identity) = lower(wanted.identity)`,
});
