/** Id tokens: the drivers' credentials a charge point sends (1.6 idTag, 2.0.1 IdTokenType), owned by assets-service. */

/** OCPP 2.0.1 IdTokenEnumType in snake case. */
export const ID_TOKEN_TYPES = [
  'central',
  'e_maid',
  'iso14443',
  'iso15693',
  'key_code',
  'local',
  'mac_address',
  'no_authorization',
] as const;
export type IdTokenType = (typeof ID_TOKEN_TYPES)[number];

export const ID_TOKEN_STATUSES = ['accepted', 'blocked', 'expired', 'invalid'] as const;
export type IdTokenStatus = (typeof ID_TOKEN_STATUSES)[number];

/** OCPP 2.0.1 IdTokenType.idToken is at most 36 characters (1.6 idTag: 20). */
export const ID_TOKEN_MAX_LENGTH = 36;
export const CONTRACT_REFERENCE_MAX_LENGTH = 255;
/** Locations one token may be restricted to. */
export const MAX_ALLOWED_LOCATIONS = 100;
/** Tokens one import may carry. */
export const MAX_ID_TOKENS_PER_IMPORT = 10_000;

/** A token named by its value and type: how a token points at its group token, also within one import. */
export interface IdTokenKey {
  id_token: string;
  type: IdTokenType;
}

export interface IdTokenWritableFields {
  status?: IdTokenStatus;
  expires_at?: string | null;
  group_id_token?: IdTokenKey | null;
  contract_reference?: string | null;
  allowed_location_uuids?: string[];
}

export interface CreateIdTokenPayload extends IdTokenWritableFields {
  id_token: string;
  type: IdTokenType;
}

export type UpdateIdTokenPayload = IdTokenWritableFields;

export interface IdTokenFilter {
  id_token?: string;
  type?: IdTokenType;
  status?: IdTokenStatus;
  contract_reference?: string;
  group_id_token?: string;
  location_uuid?: string;
}

export interface IdTokenView {
  uuid: string;
  id_token: string;
  type: IdTokenType;
  status: IdTokenStatus;
  expires_at: string | null;
  group_id_token: (IdTokenKey & { uuid: string }) | null;
  contract_reference: string | null;
  allowed_location_uuids: string[];
  created_at: string;
  updated_at: string;
}

/**
 * One part of an import: the api-gateway sends a large import in parts small enough for one NATS message each, then
 * commits it; nothing is visible before the commit. `offset` is the index of the part's first token in the import.
 */
export interface IdTokenImportPartPayload {
  importUuid: string;
  offset: number;
  tokens: CreateIdTokenPayload[];
}

/** Applies every part of the import in one transaction (created or, for a known value and type, replaced). */
export interface IdTokenImportCommitPayload {
  importUuid: string;
  /** Tokens in all parts together; a part lost on the way fails the commit. */
  total: number;
}

export interface IdTokenImportResult {
  created: number;
  updated: number;
}

export const ID_TOKEN_SORT_FIELDS = ['created_at', 'id_token'] as const;
export type IdTokenSortField = (typeof ID_TOKEN_SORT_FIELDS)[number];

/** A token as the ocpp-gateway's cache keeps it: what an answer to a charge point needs, nothing else. */
export interface AuthorizationToken {
  uuid: string;
  idToken: string;
  type: IdTokenType;
  status: IdTokenStatus;
  /** ISO 8601, or null: never. */
  expiresAt: string | null;
  group: { idToken: string; type: IdTokenType } | null;
  /** Empty: everywhere. */
  allowedLocationUuids: string[];
}

export interface IdTokenSnapshotRequest {
  tenantUuid: string;
  /** The page after this uuid (tokens come in uuid order); null: the first page. */
  afterUuid: string | null;
  limit: number;
}

export interface IdTokenSnapshotPage {
  /** The tenant's revision when the page was read (0: never written). */
  revision: number;
  tokens: AuthorizationToken[];
  /** The `afterUuid` of the next page; null: this was the last. */
  nextAfterUuid: string | null;
}

export interface IdTokenRevisionsRequest {
  tenantUuids: string[];
}

export interface IdTokenRevisionsResponse {
  /** One per requested tenant, in order. */
  revisions: number[];
}

/**
 * One committed change of a tenant's tokens at `revision` (each change raises it by one): the tokens as they are now
 * and the uuids of those deleted. A change of more tokens than one message should carry (an import) says `reload`
 * instead: the gateways load the tenant again.
 */
export interface IdTokensChangedBroadcast {
  tenantUuid: string;
  revision: number;
  changed: AuthorizationToken[];
  deletedUuids: string[];
  reload: boolean;
}

/** What the gateway decided for a token; each OCPP version words it in its own statuses (docs/authorization.md). */
export const AUTHORIZATION_RESULTS = [
  'accepted',
  'blocked',
  'expired',
  'invalid',
  'unknown',
  'not_at_this_location',
] as const;
export type AuthorizationResult = (typeof AUTHORIZATION_RESULTS)[number];
