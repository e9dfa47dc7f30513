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
  /**
   * The version the charge point holds once it accepts the update's first part; part k (from 0) installs
   * `listVersion + k`, so the whole update leaves `listVersion + partEnds.length - 1`.
   */
  listVersion: number;
  updateType: LocalListUpdateKind;
  /** Tokens plus removals of the whole update. */
  total: number;
  /** The tokens to add or replace of this page, then its removals (a differential update only). */
  tokens: AuthorizationToken[];
  removals: { idToken: string; type: IdTokenType }[];
  /** The offset of the next page; null: this was the last. */
  nextOffset: number | null;
  /**
   * Where each SendLocalList of the update ends, as a count of its items (tokens, then removals): the first part sent
   * with the update's type, the others as Differential updates (`@cpc/ocpp-commands` localListParts). Cut by the
   * charge point's reported limits (1.6 SendLocalListMaxLength, 2.0.1 LocalAuthListCtrlr.ItemsPerMessage and
   * BytesPerMessage), or assets-service's default when it reported none. The same on every page.
   */
  partEnds: number[];
}

/**
 * What the charge point accepted of a command's update. The list its first `acceptedParts` parts leave becomes the
 * controller's list (with the last accepted part's version), unless the recorded list moved on meanwhile; a repeated
 * or older report changes nothing.
 */
export interface LocalListAnsweredRequest {
  tenantUuid: string;
  commandUuid: string;
  /** How many parts, from the first, the charge point answered Accepted (each sent after the one before was). */
  acceptedParts: number;
  /** No further part of the update goes out (the last was accepted, or one was not): the update is done with. */
  final: boolean;
}

export interface IdTokensExistPayload {
  uuids: string[];
}

export interface IdTokensExistResponse {
  /** One per requested uuid, in order. */
  exists: boolean[];
}
