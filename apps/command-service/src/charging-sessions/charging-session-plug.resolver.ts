import { Injectable } from '@nestjs/common';
import {
  type AssetPage,
  AssetsSubjects,
  type ListAssetsPayload,
  type PlugFilter,
  type PlugSortField,
  type PlugView,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';

/** Plugs per EVSE the lookup considers; OCPP 2.0.1 stations have one to three. */
const MAX_PLUGS_PER_EVSE = 50;

/**
 * Finds the plug (assets-service) of a transaction's connector, by the same rule assets-service applies to status
 * notifications: on 1.6 the plug with that connector id, on 2.0.1 the n-th plug (by connector id) of that EVSE.
 * A missing plug is null; assets-service being unreachable throws, so the event is retried later.
 */
@Injectable()
export class ChargingSessionPlugResolver {
  constructor(private readonly services: ServiceClient) {}

  async resolve(
    tenantUuid: string,
    controllerUuid: string,
    connectorId: number,
    evseId: number | null,
  ): Promise<string | null> {
    const filter: PlugFilter =
      evseId === null
        ? { controller_uuid: controllerUuid, connector_id: connectorId }
        : { controller_uuid: controllerUuid, evse_id: evseId };
    const request: TenantScopedRequest<ListAssetsPayload<PlugFilter, PlugSortField>> = {
      // A service acting for the tenant the event belongs to, not for a caller.
      principal: {
        tenantUuid,
        tenantSlug: '',
        subject: 'command-service',
        subjectType: 'service',
        scopes: [],
      },
      payload: {
        page: 1,
        limit: MAX_PLUGS_PER_EVSE,
        orderBy: [{ field: 'connector_id', direction: 'asc' }],
        filter,
      },
    };
    const page = await this.services.request<AssetPage<PlugView>>(AssetsSubjects.listPlugs, request);
    const plug = evseId === null ? page.items[0] : page.items[connectorId - 1];
    return plug?.uuid ?? null;
  }
}
