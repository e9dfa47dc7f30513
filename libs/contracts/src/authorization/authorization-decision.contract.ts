import type { CursorListPayload, ListAssetsPayload, ListPagination } from '../assets/asset-list.contract.js';
import type { EventEnvelope } from '../events/event-stream.js';
import type { AuthorizationResult, IdTokenType } from './id-token.contract.js';

/** The message that carried the token. */
export const AUTHORIZATION_MESSAGE_KINDS = [
  'authorize',
  'start_transaction',
  'stop_transaction',
  'transaction_event',
] as const;
export type AuthorizationMessageKind = (typeof AUTHORIZATION_MESSAGE_KINDS)[number];

/** Why the decision came out as it did (docs/authorization.md). */
export const AUTHORIZATION_REASONS = [
  'known_token',
  'unknown_token',
  'unknown_token_accepted',
  'token_status',
  'expiry_passed',
  'location_not_allowed',
  'tokens_unavailable',
] as const;
export type AuthorizationReason = (typeof AUTHORIZATION_REASONS)[number];

/** One answer the ocpp-gateway gave about an id token. */
export interface AuthorizationDecisionRecord {
  /** Unique per decision: the decision log's key, so an event delivered twice stores each decision once. */
  decisionUuid: string;
  /** ISO 8601. */
  decidedAt: string;
  controllerUuid: string;
  ocppIdentity: string;
  locationUuid: string;
  /** As the charge point sent it. */
  idToken: string;
  /** The token's type: of the token found, else as a 2.0.1 message named it; null for an unknown 1.6 idTag. */
  type: IdTokenType | null;
  /** The tenant's token the answer was about; null when the value was not known. */
  tokenUuid: string | null;
  result: AuthorizationResult;
  reason: AuthorizationReason;
  messageKind: AuthorizationMessageKind;
}

/** The decisions one gateway made for one tenant within a short while, in the order it made them. */
export type AuthorizationDecisionsEvent = EventEnvelope<{ decisions: AuthorizationDecisionRecord[] }>;

export const AUTHORIZATION_DECISION_SORT_FIELDS = ['decided_at'] as const;
export type AuthorizationDecisionSortField = (typeof AUTHORIZATION_DECISION_SORT_FIELDS)[number];

export interface AuthorizationDecisionFilter {
  /** Case-insensitive. */
  id_token?: string;
  controller_uuid?: string;
  result?: AuthorizationResult;
  /** Decided at or after (ISO 8601). */
  decided_from?: string;
  /** Decided before (ISO 8601). */
  decided_to?: string;
}

export interface AuthorizationDecisionView {
  uuid: string;
  id_token: string;
  type: IdTokenType | null;
  id_token_uuid: string | null;
  controller_uuid: string;
  location_uuid: string;
  result: AuthorizationResult;
  reason: AuthorizationReason;
  message_kind: AuthorizationMessageKind;
  decided_at: string;
}

/** The decision log's query: numbered pages, or by cursor (the log grows without bound). */
export type ListAuthorizationDecisionsPayload = ListAssetsPayload<
  AuthorizationDecisionFilter,
  AuthorizationDecisionSortField
> &
  CursorListPayload;

/** A page of the decision log, numbered or read by cursor. */
export interface AuthorizationDecisionPage {
  items: AuthorizationDecisionView[];
  pagination: ListPagination;
}
