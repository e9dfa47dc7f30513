import { Injectable } from '@nestjs/common';
import {
  AuthorizationSubjects,
  type IdTokensExistPayload,
  type IdTokensExistResponse,
  type Principal,
  type TenantScopedRequest,
  type ValidationIssue,
} from '@cpc/contracts';
import type { SendLocalListParameters } from '@cpc/ocpp-commands';
import { ServiceClient } from '@cpc/nats';

/** The errorKey of an id token a send_local_list names that the tenant does not have (as a missing target). */
const NOT_FOUND_ERROR_KEY = 'not_found';

/**
 * The id tokens a send_local_list names must be the tenant's: one 422 item per other one (another tenant's token is
 * reported exactly as a missing one).
 */
@Injectable()
export class LocalListTokens {
  constructor(private readonly services: ServiceClient) {}

  async check(principal: Principal, parameters: SendLocalListParameters): Promise<ValidationIssue[]> {
    const uuids = parameters.id_token_uuids ?? [];
    if (uuids.length === 0) return [];
    const { exists } = await this.services.request<
      IdTokensExistResponse,
      TenantScopedRequest<IdTokensExistPayload>
    >(AuthorizationSubjects.idTokensExist, { principal, payload: { uuids } });
    return uuids.flatMap((uuid, index) =>
      exists[index]
        ? []
        : [
            {
              errorKey: NOT_FOUND_ERROR_KEY,
              message: `parameters.id_token_uuids[${index}]: no id token ${uuid} exists`,
              parameter: `parameters.id_token_uuids[${index}]`,
            },
          ],
    );
  }
}
