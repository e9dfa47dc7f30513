import { Inject, Injectable } from '@nestjs/common';
import { PlugOfConnectorLookup, ServiceClient } from '@cpc/nats';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';

/**
 * The plug uuid (assets-service) of the connector an event names, for `plug_uuid` in plug and session webhooks;
 * null when no plug is registered for it. Remembered like controller locations; assets-service being away throws, so
 * the event is tried again.
 */
@Injectable()
export class ConnectorPlugs {
  private readonly known = new Map<string, { plugUuid: string | null; until: number }>();
  private readonly lookup: PlugOfConnectorLookup;

  constructor(
    services: ServiceClient,
    @Inject(WEBHOOK_SERVICE_CONFIG) private readonly config: WebhookServiceConfig,
  ) {
    this.lookup = new PlugOfConnectorLookup(services, 'webhook-service');
  }

  async plugOf(
    tenantUuid: string,
    controllerUuid: string,
    connector: { connectorId: number | null; evseId: number | null },
  ): Promise<string | null> {
    const key = `${tenantUuid}/${controllerUuid}/${connector.evseId}/${connector.connectorId}`;
    const cached = this.known.get(key);
    if (cached && cached.until > Date.now()) return cached.plugUuid;
    const { plugUuid } = await this.lookup.resolve(
      tenantUuid,
      controllerUuid,
      connector.connectorId,
      connector.evseId,
    );
    const { tuning } = this.config;
    if (this.known.size >= tuning.controllerLocationCacheSize) this.known.clear();
    this.known.set(key, { plugUuid, until: Date.now() + tuning.controllerLocationCacheMs });
    return plugUuid;
  }
}
