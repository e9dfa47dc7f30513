import type { AuthorizationToken, IdTokenStatus, IdTokenType, OcppProtocol } from '@cpc/contracts';
import { ID_TAG_MAX_LENGTH, type LocalListUpdateType } from './command-parameters.js';
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

function ocpp16Entries(update: LocalListUpdate, omittedUuids: string[]): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [];
  for (const token of update.tokens) {
    if (!fitsOcpp16(token)) {
      omittedUuids.push(token.uuid);
      continue;
    }
    const idTagInfo: Record<string, string> = { status: LIST_STATUS[token.status] };
    if (token.expiresAt) idTagInfo.expiryDate = token.expiresAt;
    if (token.group && fitsOcpp16(token.group)) idTagInfo.parentIdTag = token.group.idToken;
    entries.push({ idTag: token.idToken, idTagInfo });
  }
  for (const removal of update.removals ?? [])
    if (fitsOcpp16(removal)) entries.push({ idTag: removal.idToken });
  return entries;
}

const idTokenOf = (token: Pick<AuthorizationToken, 'idToken' | 'type'>) => ({
  idToken: token.idToken,
  type: OCPP_ID_TOKEN_TYPES[token.type],
});

function ocpp201Entries(update: LocalListUpdate): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = update.tokens.map((token) => {
    const idTokenInfo: Record<string, unknown> = { status: LIST_STATUS[token.status] };
    if (token.expiresAt) idTokenInfo.cacheExpiryDateTime = token.expiresAt;
    if (token.group) idTokenInfo.groupIdToken = idTokenOf(token.group);
    return { idToken: idTokenOf(token), idTokenInfo };
  });
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
