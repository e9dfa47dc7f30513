import type { AuthorizationToken, IdTokenStatus, IdTokenType, OcppProtocol } from '@cpc/contracts';
import { ID_TAG_MAX_LENGTH, type LocalListUpdateType } from './command-parameters.js';
import { CALL_FRAME_OVERHEAD, utf8Length } from './configuration-changes.js';
import { ocppCall, type OcppCall } from './ocpp-call.js';

/** OCPP 2.0.1 IdTokenEnumType by the platform's snake-case id token type. */
export const OCPP_ID_TOKEN_TYPES: Readonly<Record<IdTokenType, string>> = {
  central: 'Central',
  e_maid: 'eMAID',
  iso14443: 'ISO14443',
  iso15693: 'ISO15693',
  key_code: 'KeyCode',
  local: 'Local',
  mac_address: 'MacAddress',
  no_authorization: 'NoAuthorization',
};

/** A stored token status as both protocols name it in a local list (idTagInfo / idTokenInfo `status`). */
const LIST_STATUS: Readonly<Record<IdTokenStatus, string>> = {
  accepted: 'Accepted',
  blocked: 'Blocked',
  expired: 'Expired',
  invalid: 'Invalid',
};

/** One SendLocalList: the list version to install and the tokens it carries. */
export interface LocalListUpdate {
  /** The version the charge point holds after this update (the platform's stored version + 1). */
  listVersion: number;
  updateType: LocalListUpdateType;
  /** Tokens to add or replace, each with its status, expiry and group. */
  tokens: readonly AuthorizationToken[];
  /** Differential only: tokens to take off the list (sent without idTagInfo / idTokenInfo, as OCPP defines). */
  removals?: readonly Pick<AuthorizationToken, 'idToken' | 'type'>[];
}

/** What a list entry says of a token (where the token is allowed plays no part). */
type ListToken = Omit<AuthorizationToken, 'allowedLocationUuids'>;

/** The call and the tokens it could not carry (1.6: an idTag or parentIdTag longer than 20 characters). */
export interface LocalListCall {
  call: OcppCall<'SendLocalList'>;
  /** uuids of the tokens left out, in the order given. */
  omittedUuids: string[];
}

const UPDATE_TYPE: Readonly<Record<LocalListUpdateType, string>> = {
  full: 'Full',
  differential: 'Differential',
};

function fitsOcpp16(token: Pick<AuthorizationToken, 'idToken'>): boolean {
  return token.idToken.length <= ID_TAG_MAX_LENGTH;
}

function ocpp16Entry(token: ListToken): Record<string, unknown> {
  const idTagInfo: Record<string, string> = { status: LIST_STATUS[token.status] };
  if (token.expiresAt) idTagInfo.expiryDate = token.expiresAt;
  if (token.group && fitsOcpp16(token.group)) idTagInfo.parentIdTag = token.group.idToken;
  return { idTag: token.idToken, idTagInfo };
}

function ocpp16Entries(update: LocalListUpdate, omittedUuids: string[]): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [];
  for (const token of update.tokens) {
    if (!fitsOcpp16(token)) {
      omittedUuids.push(token.uuid);
      continue;
    }
    entries.push(ocpp16Entry(token));
  }
  for (const removal of update.removals ?? [])
    if (fitsOcpp16(removal)) entries.push({ idTag: removal.idToken });
  return entries;
}

const idTokenOf = (token: Pick<AuthorizationToken, 'idToken' | 'type'>) => ({
  idToken: token.idToken,
  type: OCPP_ID_TOKEN_TYPES[token.type],
});

function ocpp201Entry(token: ListToken): Record<string, unknown> {
  const idTokenInfo: Record<string, unknown> = { status: LIST_STATUS[token.status] };
  if (token.expiresAt) idTokenInfo.cacheExpiryDateTime = token.expiresAt;
  if (token.group) idTokenInfo.groupIdToken = idTokenOf(token.group);
  return { idToken: idTokenOf(token), idTokenInfo };
}

function ocpp201Entries(update: LocalListUpdate): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = update.tokens.map(ocpp201Entry);
  for (const removal of update.removals ?? []) entries.push({ idToken: idTokenOf(removal) });
  return entries;
}

/**
 * SendLocalList for one protocol. 1.6: {listVersion, updateType, localAuthorizationList[{idTag, idTagInfo}]}, tokens
 * whose value does not fit an idTag (20 characters) left out and named in `omittedUuids`, a parent longer than that
 * left off its entry. 2.0.1: {versionNumber, updateType, localAuthorizationList[{idToken {idToken, type},
 * idTokenInfo}]}, the list left out when empty (the schema wants at least one entry; an empty Full update clears the
 * list). A removal (differential only) is an entry without idTagInfo / idTokenInfo.
 *
 * @throws TypeError for removals in a full update or a list version below 1 (programming errors).
 */
export function sendLocalListCall(protocol: OcppProtocol, update: LocalListUpdate): LocalListCall {
  if (!Number.isInteger(update.listVersion) || update.listVersion < 1)
    throw new TypeError(`list version ${update.listVersion} is not a positive integer`);
  if (update.updateType === 'full' && (update.removals?.length ?? 0) > 0)
    throw new TypeError('a full update replaces the list: it has no removals');
  const updateType = UPDATE_TYPE[update.updateType];
  const omittedUuids: string[] = [];
  if (protocol === 'ocpp1.6') {
    const localAuthorizationList = ocpp16Entries(update, omittedUuids);
    return {
      call: ocppCall('SendLocalList', {
        listVersion: update.listVersion,
        updateType,
        localAuthorizationList,
      }),
      omittedUuids,
    };
  }
  const entries = ocpp201Entries(update);
  return {
    call: ocppCall('SendLocalList', {
      versionNumber: update.listVersion,
      updateType,
      localAuthorizationList: entries.length > 0 ? entries : undefined,
    }),
    omittedUuids,
  };
}

/**
 * How much one SendLocalList may carry, as the charge point reports it: 1.6 `SendLocalListMaxLength`, 2.0.1
 * `LocalAuthListCtrlr.ItemsPerMessage` (ItemsPerMessageSendLocalList) and `LocalAuthListCtrlr.BytesPerMessage`
 * (BytesPerMessageSendLocalList; null: no byte limit).
 */
export interface LocalListMessageLimits {
  itemsPerMessage: number;
  bytesPerMessage: number | null;
}

/** A list version of ten digits: the byte count of a part never depends on the version it is given. */
const LARGEST_VERSION = 2_147_483_647;

/**
 * Where an update's parts end: the update's items (its tokens, then its removals) cut into runs of at most
 * `itemsPerMessage` items whose SendLocalList CALL frame stays within `bytesPerMessage` (an entry too large on its
 * own still goes, alone: the charge point answers for it). Each number is the count of items up to the end of a
 * part; an update without items is one empty part ([0]). Items a 1.6 list leaves out (sendLocalListCall) count as
 * items of no size.
 */
export function localListPartEnds(
  protocol: OcppProtocol,
  update: { tokens: readonly ListToken[]; removals?: LocalListUpdate['removals'] },
  limits: LocalListMessageLimits,
): number[] {
  const removals = update.removals ?? [];
  const total = update.tokens.length + removals.length;
  if (total === 0) return [0];
  const maxItems = Math.max(1, Math.floor(limits.itemsPerMessage));
  const maxBytes = limits.bytesPerMessage;
  const entryBytes = (index: number): number => {
    if (maxBytes === null) return 0;
    const item = index < update.tokens.length ? update.tokens[index] : removals[index - update.tokens.length];
    const removal = index >= update.tokens.length;
    if (protocol === 'ocpp1.6') {
      if (!fitsOcpp16(item)) return 0;
      return utf8Length(removal ? { idTag: item.idToken } : ocpp16Entry(item as ListToken));
    }
    return utf8Length(removal ? { idToken: idTokenOf(item) } : ocpp201Entry(item as ListToken));
  };
  // The frame around the entries: a differential part with the largest version and an empty list.
  const frameBytes =
    CALL_FRAME_OVERHEAD +
    'SendLocalList'.length +
    utf8Length(
      protocol === 'ocpp1.6'
        ? { listVersion: LARGEST_VERSION, updateType: 'Differential', localAuthorizationList: [] }
        : { versionNumber: LARGEST_VERSION, updateType: 'Differential', localAuthorizationList: [] },
    );
  const ends: number[] = [];
  let count = 0;
  let bytes = frameBytes;
  for (let index = 0; index < total; index += 1) {
    const size = entryBytes(index);
    // A comma before every entry but the first.
    const fits = count < maxItems && (maxBytes === null || bytes + size + (count > 0 ? 1 : 0) <= maxBytes);
    if (!fits && count > 0) {
      ends.push(index);
      count = 0;
      bytes = frameBytes;
    }
    bytes += size + (count > 0 ? 1 : 0);
    count += 1;
  }
  ends.push(total);
  return ends;
}

/**
 * An update as the SendLocalList messages that carry it, cut where `partEnds` says (localListPartEnds). Each part
 * installs the next version: the first part `listVersion` with the update's type, part k `listVersion + k` as a
 * Differential update (OCPP 2.0.1 D01.FR.19: a charge point answers VersionMismatch to a Differential update whose
 * version is not above the one it holds, so parts cannot share a version).
 *
 * @throws TypeError when `partEnds` does not cut the update's items in order, ending with the last (a programming error).
 */
export function localListParts(update: LocalListUpdate, partEnds: readonly number[]): LocalListUpdate[] {
  const removals = update.removals ?? [];
  const total = update.tokens.length + removals.length;
  const ordered = partEnds.every((end, index) => end >= (index === 0 ? 0 : partEnds[index - 1] + 1));
  if (partEnds.length === 0 || !ordered || partEnds[partEnds.length - 1] !== total)
    throw new TypeError(`part ends ${partEnds.join(',')} do not cut an update of ${total} items`);
  const tokenCount = update.tokens.length;
  return partEnds.map((end, index) => {
    const start = index === 0 ? 0 : partEnds[index - 1];
    const part: LocalListUpdate = {
      listVersion: update.listVersion + index,
      updateType: index === 0 ? update.updateType : 'differential',
      tokens: update.tokens.slice(start, Math.min(end, tokenCount)),
    };
    if (update.updateType === 'differential' || index > 0)
      part.removals = removals.slice(Math.max(0, start - tokenCount), Math.max(0, end - tokenCount));
    return part;
  });
}
