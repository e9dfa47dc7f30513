/** Controller: an OCPP charge point, connected to the platform through the ocpp-gateway. */

/** OCPP security profiles: 0 none, 1 Basic auth, 2 TLS + Basic auth, 3 TLS with client certificate. */
export const SECURITY_PROFILES = [0, 1, 2, 3] as const;
export type SecurityProfile = (typeof SECURITY_PROFILES)[number];
/** Profiles under which the charge point authenticates with HTTP Basic auth and needs an `ocpp_password`. */
export const PASSWORD_SECURITY_PROFILES: readonly number[] = [1, 2];

export const CONNECTION_STATUSES = ['online', 'offline'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/**
 * OCPP 2.0.1 identifierString without `:` (the identity is the HTTP Basic user name, which cannot hold a colon) and
 * without `/` (it is the last segment of the connection URL); at most 48 characters.
 */
export const OCPP_IDENTITY_PATTERN = /^[A-Za-z0-9*\-_=+|@.]{1,48}$/;
/** OCPP 2.0.1 passwordString: 16 to 40 characters of this set. */
export const OCPP_PASSWORD_PATTERN = /^[A-Za-z0-9*\-_=:+|@.]{16,40}$/;

export interface CreateControllerPayload {
  location_uuid: string;
  name: string;
  ocpp_identity: string;
  /** Required for security profile 1 and 2; stored hashed, never returned. */
  ocpp_password?: string;
  security_profile?: SecurityProfile;
}

export interface UpdateControllerPayload {
  location_uuid?: string;
  name?: string;
  ocpp_identity?: string;
  ocpp_password?: string | null;
  security_profile?: SecurityProfile;
}

export interface ControllerFilter {
  location_uuid?: string;
  name?: string;
  ocpp_identity?: string;
  connection_status?: ConnectionStatus;
  security_profile?: SecurityProfile;
}

export interface ControllerView {
  uuid: string;
  location_uuid: string;
  name: string;
  ocpp_identity: string;
  security_profile: SecurityProfile;
  /** Whether a password is set (the password itself is write-only). */
  has_ocpp_password: boolean;
  connection_status: ConnectionStatus;
  ocpp_protocol: string | null;
  /** ISO 8601 date-time, seconds, Z. */
  last_seen_at: string | null;
  vendor: string | null;
  model: string | null;
  serial_number: string | null;
  firmware_version: string | null;
  /** The latest FirmwareStatusNotification's status (e.g. `Downloading`, `Installed`), and when it came. */
  firmware_status: string | null;
  firmware_status_at: string | null;
  /** The latest DiagnosticsStatusNotification / LogStatusNotification status (e.g. `Uploading`), and when it came. */
  diagnostics_status: string | null;
  diagnostics_status_at: string | null;
  created_at: string;
  updated_at: string;
}
