import type { AuthorizationMode, AuthorizationReason, AuthorizationToken, IdTokenType } from '@cpc/contracts';
import { AUTHORIZATION_RESULTS, type AuthorizationResult } from '@cpc/contracts';
import { OCPP_ID_TOKEN_TYPES } from '@cpc/ocpp-commands';

export { AUTHORIZATION_RESULTS, type AuthorizationResult, OCPP_ID_TOKEN_TYPES };

/** The platform's type of each OCPP 2.0.1 IdTokenEnumType. */
const TYPE_OF_OCPP = new Map(
  Object.entries(OCPP_ID_TOKEN_TYPES).map(([type, ocpp]) => [ocpp, type as IdTokenType]),
);

/** The platform's type of an OCPP 2.0.1 IdTokenEnumType; null for none (1.6) or one OCPP does not define. */
export function typeOfOcpp(ocppType: string | null): IdTokenType | null {
  return ocppType === null ? null : (TYPE_OF_OCPP.get(ocppType) ?? null);
}

/** A 1.6 idTag has no type: when tokens of several types share its value, the first of these is taken. */
const OCPP16_TYPE_PREFERENCE: readonly IdTokenType[] = [
  'iso14443',
  'iso15693',
  'central',
  'key_code',
  'e_maid',
  'local',
  'mac_address',
  'no_authorization',
];

export interface AuthorizationDecision {
  result: AuthorizationResult;
  reason: AuthorizationReason;
  /** The tenant's token the answer is about; undefined when the value is not known. */
  token: AuthorizationToken | undefined;
}

/** The token a message names: by value and type (2.0.1), or by value alone (1.6, see OCPP16_TYPE_PREFERENCE). */
export function findToken(
  candidates: readonly AuthorizationToken[],
  ocppType: string | null,
): AuthorizationToken | undefined {
  if (ocppType !== null) {
    const type = TYPE_OF_OCPP.get(ocppType);
    return candidates.find((token) => token.type === type);
  }
  return [...candidates].sort(
    (a, b) => OCPP16_TYPE_PREFERENCE.indexOf(a.type) - OCPP16_TYPE_PREFERENCE.indexOf(b.type),
  )[0];
}

/**
 * The tenant's policy: a known token is answered from its record (status, then expiry, then location) in both
 * modes; an unknown one is accepted only in accept_unknown. Without the tenant's tokens (assets-service could not be
 * reached for the first load) every token is treated as unknown.
 */
export function decide(
  token: AuthorizationToken | undefined,
  context: { mode: AuthorizationMode; locationUuid: string; now: Date; tokensAvailable: boolean },
): AuthorizationDecision {
  if (!token) {
    if (context.mode === 'accept_unknown')
      return { result: 'accepted', reason: 'unknown_token_accepted', token };
    return {
      result: 'unknown',
      reason: context.tokensAvailable ? 'unknown_token' : 'tokens_unavailable',
      token,
    };
  }
  if (token.status !== 'accepted') return { result: token.status, reason: 'token_status', token };
  if (token.expiresAt !== null && Date.parse(token.expiresAt) <= context.now.getTime()) {
    return { result: 'expired', reason: 'expiry_passed', token };
  }
  if (token.allowedLocationUuids.length > 0 && !token.allowedLocationUuids.includes(context.locationUuid)) {
    return { result: 'not_at_this_location', reason: 'location_not_allowed', token };
  }
  return { result: 'accepted', reason: 'known_token', token };
}

const OCPP16_STATUS: Record<AuthorizationResult, string> = {
  accepted: 'Accepted',
  blocked: 'Blocked',
  expired: 'Expired',
  invalid: 'Invalid',
  unknown: 'Invalid',
  not_at_this_location: 'Invalid',
};

const OCPP201_STATUS: Record<AuthorizationResult, string> = {
  accepted: 'Accepted',
  blocked: 'Blocked',
  expired: 'Expired',
  invalid: 'Invalid',
  unknown: 'Unknown',
  not_at_this_location: 'NotAtThisLocation',
};

/** OCPP 1.6 parentIdTag and idTag are CiString20. */
const OCPP16_ID_TAG_MAX_LENGTH = 20;

/** OCPP 1.6 IdTagInfo: status, expiryDate and parentIdTag of a known token. */
export function idTagInfo(decision: AuthorizationDecision): Record<string, string> {
  const info: Record<string, string> = { status: OCPP16_STATUS[decision.result] };
  const token = decision.token;
  if (token?.expiresAt) info.expiryDate = token.expiresAt;
  if (token?.group && token.group.idToken.length <= OCPP16_ID_TAG_MAX_LENGTH)
    info.parentIdTag = token.group.idToken;
  return info;
}

/** OCPP 2.0.1 IdTokenInfoType: status, cacheExpiryDateTime and groupIdToken of a known token. */
export function idTokenInfo(decision: AuthorizationDecision): Record<string, unknown> {
  const info: Record<string, unknown> = { status: OCPP201_STATUS[decision.result] };
  const token = decision.token;
  if (token?.expiresAt) info.cacheExpiryDateTime = token.expiresAt;
  if (token?.group) {
    info.groupIdToken = { idToken: token.group.idToken, type: OCPP_ID_TOKEN_TYPES[token.group.type] };
  }
  return info;
}
