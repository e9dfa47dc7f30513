import type { IdTokenKey, IdTokenView } from '@cpc/contracts';
import type { IdTokenEntity } from '../entities/index.js';
import { toIsoSeconds, toIsoSecondsOrNull } from '../shared/time-format.js';

export function toIdTokenView(
  token: IdTokenEntity,
  group: (IdTokenKey & { uuid: string }) | undefined,
): IdTokenView {
  return {
    uuid: token.uuid,
    id_token: token.idToken,
    type: token.type,
    status: token.status,
    expires_at: toIsoSecondsOrNull(token.expiresAt),
    group_id_token: group ?? null,
    contract_reference: token.contractReference,
    allowed_location_uuids: token.allowedLocationUuids,
    created_at: toIsoSeconds(token.createdAt),
    updated_at: toIsoSeconds(token.updatedAt),
  };
}
