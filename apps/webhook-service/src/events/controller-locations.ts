import { Inject, Injectable } from '@nestjs/common';
import { AssetsSubjects, type ControllerView, ErrorCode, type TenantScopedRequest } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { ServiceClient } from '@cpc/nats';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';

/**
 * The location of a controller (assets-service), for subscriptions filtered by location; remembered for a minute.
 * A controller that no longer exists has none.
 */
@Injectable()
export class ControllerLocations {
  private readonly known = new Map<string, { locationUuid: string | null; until: number }>();

  constructor(
    private readonly services: ServiceClient,
    @Inject(WEBHOOK_SERVICE_CONFIG) private readonly config: WebhookServiceConfig,
  ) {}

  async locationOf(tenantUuid: string, controllerUuid: string): Promise<string | null> {
    const key = `${tenantUuid}/${controllerUuid}`;
    const cached = this.known.get(key);
    if (cached && cached.until > Date.now()) return cached.locationUuid;
    let locationUuid: string | null = null;
    try {
      const controller = await this.services.request<ControllerView, TenantScopedRequest<{ uuid: string }>>(
        AssetsSubjects.getController,
        {
          principal: {
            tenantUuid,
            tenantSlug: '',
            subject: 'webhook-service',
            subjectType: 'service',
            scopes: [],
          },
          payload: { uuid: controllerUuid },
        },
      );
      locationUuid = controller.location_uuid;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === ErrorCode.NotFound)) throw error;
    }
    if (this.known.size >= this.config.tuning.controllerLocationCacheSize) this.known.clear();
    this.known.set(key, { locationUuid, until: Date.now() + this.config.tuning.controllerLocationCacheMs });
    return locationUuid;
  }
}
