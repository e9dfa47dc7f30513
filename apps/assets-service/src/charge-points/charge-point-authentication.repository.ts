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
 * The controller a handshake names, by the tenant's case-insensitive identity (controllers_tenant_identity_key): the
 * columns the check needs and no entity around them, as every charge point's (re)connect runs it.
 */
export const findHandshakeController = sqlStatement<
  { tenantUuid: string; identity: string },
  HandshakeController
>({
  name: 'charge-point-authentication.find-controller',
  parameters: ['tenantUuid', 'identity'],
  sql: `SELECT uuid, ocpp_identity AS "ocppIdentity", security_profile AS "securityProfile",
               credentials_version AS "credentialsVersion", location_uuid AS "locationUuid",
               ocpp_password_hash AS "ocppPasswordHash"
          FROM assets.controllers
         WHERE tenant_uuid = :tenantUuid AND lower(ocpp_identity) = lower(:identity)`,
});
