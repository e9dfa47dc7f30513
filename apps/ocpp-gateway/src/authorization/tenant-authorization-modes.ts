import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { AuthSubjects, type AuthorizationMode, type ResolveTenantResponse } from '@cpc/contracts';
import { listenForJsonBroadcasts, NATS_CONNECTION } from '@cpc/nats';

/**
 * Each tenant's authorization mode as this instance last heard it: from every resolution of the tenant (each
 * handshake's, within OCPP_TENANT_CACHE_TTL_MS) and at once from the admin CLI's auth.tenant.settings-changed.v1.
 * A tenant not heard of yet is strict.
 */
@Injectable()
export class TenantAuthorizationModes implements OnModuleInit {
  private readonly logger = new Logger(TenantAuthorizationModes.name);
  private readonly modes = new Map<string, AuthorizationMode>();
  private readonly listeners: ((tenant: ResolveTenantResponse) => void)[] = [];

  constructor(@Inject(NATS_CONNECTION) private readonly nats: NatsConnection) {}

  onModuleInit(): void {
    listenForJsonBroadcasts<ResolveTenantResponse>(
      this.nats,
      AuthSubjects.tenantSettingsChanged,
      'tenant settings change',
      this.logger,
      (tenant) => this.heard(tenant),
    );
  }

  /** Also told to whoever caches resolved tenants (the slug resolver keeps the profile-0 switch with them). */
  onChange(listener: (tenant: ResolveTenantResponse) => void): void {
    this.listeners.push(listener);
  }

  modeOf(tenantUuid: string): AuthorizationMode {
    return this.modes.get(tenantUuid) ?? 'strict';
  }

  /** A resolution or an announcement of the tenant. */
  heard(tenant: ResolveTenantResponse): void {
    if (typeof tenant?.uuid !== 'string') return;
    this.modes.set(tenant.uuid, tenant.authorizationMode === 'accept_unknown' ? 'accept_unknown' : 'strict');
    for (const listener of this.listeners) listener(tenant);
  }
}
