import {
  type AssetPage,
  AssetsSubjects,
  type ListAssetsPayload,
  type PlugFilter,
  type PlugSortField,
  type PlugView,
  type TenantScopedRequest,
} from '@cpc/contracts';
import type { ServiceClient } from './service-client.js';

/** Plugs per EVSE the lookup considers; OCPP 2.0.1 stations have one to three. */
const MAX_PLUGS_PER_EVSE = 50;

/** The plug (assets-service) of an OCPP connector, or why none was found. */
export type PlugResolution = { plugUuid: string } | { plugUuid: null; reason: string };

/**
 * Finds the plug (assets-service) of the connector a charge point names, by the same rule assets-service applies to
 * status notifications: on 1.6 the plug with that connector id, on 2.0.1 the n-th plug (by connector id) of that EVSE,
 * or the EVSE's only plug when the charge point named the EVSE alone. Assets-service being unreachable throws, so the
 * event is retried later. `serviceName` is the service asking, for the tenant the event belongs to.
 */
export class PlugOfConnectorLookup {
  constructor(
    private readonly services: ServiceClient,
    private readonly serviceName: string,
  ) {}

  async resolve(
    tenantUuid: string,
    controllerUuid: string,
    connectorId: number | null,
    evseId: number | null,
  ): Promise<PlugResolution> {
    if (evseId === null && connectorId === null) return { plugUuid: null, reason: 'no connector named yet' };
    const filter: PlugFilter =
      evseId === null
        ? { controller_uuid: controllerUuid, connector_id: connectorId ?? undefined }
        : { controller_uuid: controllerUuid, evse_id: evseId };
    const where = evseId === null ? `connector ${connectorId}` : `EVSE ${evseId}`;
    const request: TenantScopedRequest<ListAssetsPayload<PlugFilter, PlugSortField>> = {
      // A service acting for the tenant the event belongs to, not for a caller.
      principal: {
        tenantUuid,
        tenantSlug: '',
        subject: this.serviceName,
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
    if (page.items.length === 0) return { plugUuid: null, reason: `no plug registered for ${where}` };
    if (evseId !== null && connectorId === null) {
      return page.items.length === 1
        ? { plugUuid: page.items[0].uuid }
        : {
            plugUuid: null,
            reason: `${where} has ${page.items.length} plugs and no connector was named yet`,
          };
    }
    const plug = evseId === null ? page.items[0] : page.items[(connectorId ?? 1) - 1];
    return plug
      ? { plugUuid: plug.uuid }
      : { plugUuid: null, reason: `${where} has no connector ${connectorId}` };
  }
}
