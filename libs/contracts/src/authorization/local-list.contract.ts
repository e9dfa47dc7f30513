import type { OcppProtocol } from '../charge-points/charge-point-events.js';
import type { AuthorizationToken, IdTokenType } from './id-token.contract.js';

/** send_local_list `update_type`. */
export type LocalListUpdateKind = 'full' | 'differential';

/**
 * One page of the local list update of a send_local_list command (AuthorizationSubjects.localListPage). The page at
 * offset 0 prepares the update for `commandUuid` (or finds the one prepared before with the same update type, so a
 * repeated delivery sends the same list): the version is the controller's recorded version + 1; a full update lists
 * every token, a differential one only the tokens added or changed and the removals since the recorded list. Later
 * offsets read the prepared update. The update is recorded as the controller's list when the charge point answers
 * Accepted (assets-service follows the gateway's call-completed events).
 */
export interface LocalListPageRequest {
  tenantUuid: string;
  controllerUuid: string;
  commandUuid: string;
  updateType: LocalListUpdateKind;
  /** The tokens named by the command, or null: every token of the tenant allowed at the controller's location. */
  idTokenUuids: string[] | null;
  /** 1.6 lists only tokens whose value (and group's value) fits an idTag (20 characters). */
  protocol: OcppProtocol;
  /** Index of the first entry (the tokens, then the removals) of this page. */
  offset: number;
  limit: number;
}

export interface LocalListPage {
  /** The version the charge point holds once it accepts the update. */
  listVersion: number;
  updateType: LocalListUpdateKind;
  /** Tokens plus removals of the whole update. */
  total: number;
  /** The tokens to add or replace of this page, then its removals (a differential update only). */
  tokens: AuthorizationToken[];
  removals: { idToken: string; type: IdTokenType }[];
  /** The offset of the next page; null: this was the last. */
  nextOffset: number | null;
}

export interface LocalListAnsweredRequest {
  tenantUuid: string;
  commandUuid: string;
  /** The charge point answered Accepted: the update becomes the controller's list. */
  accepted: boolean;
}

export interface IdTokensExistPayload {
  uuids: string[];
}

export interface IdTokensExistResponse {
  /** One per requested uuid, in order. */
  exists: boolean[];
}
