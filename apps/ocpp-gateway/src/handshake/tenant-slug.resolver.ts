import { Inject, Injectable } from '@nestjs/common';
import {
  AuthSubjects,
  ErrorCode,
  type ResolveTenantRequest,
  type ResolveTenantResponse,
} from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { ServiceClient } from '@cpc/nats';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import { TenantAuthorizationModes } from '../authorization/tenant-authorization-modes.js';

interface CachedTenant {
  tenant: Promise<ResolveTenantResponse | null>;
  expiresAt: number;
}

/**
 * Maps the tenant slug of a connection URL to the tenant (auth-service), caching answers briefly: after a gateway
 * restart thousands of charge points reconnect at once, and they share a handful of tenants. Concurrent look-ups of
 * one slug share one request. Errors other than not_found (auth-service down) are not cached.
 */
@Injectable()
export class TenantSlugResolver {
  private readonly cache = new Map<string, CachedTenant>();

  constructor(
    private readonly services: ServiceClient,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    private readonly modes: TenantAuthorizationModes,
  ) {
    // An announced change replaces the cached answer at once.
    modes.onChange((tenant) => {
      const key = tenant.slug?.toLowerCase();
      if (!key || this.config.tenantCacheTtlMs <= 0) return;
      const cached = this.cache.get(key);
      if (cached) cached.tenant = Promise.resolve(tenant);
    });
  }

  /** null when no (enabled) tenant has this slug; throws when auth-service cannot be asked. */
  resolve(slug: string): Promise<ResolveTenantResponse | null> {
    const key = slug.toLowerCase();
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.tenant;
    const tenant = this.lookUp(slug);
    if (this.config.tenantCacheTtlMs > 0) {
      if (this.cache.size >= this.config.tuning.maxCachedTenantSlugs) this.cache.clear();
      const entry: CachedTenant = { tenant, expiresAt: Date.now() + this.config.tenantCacheTtlMs };
      this.cache.set(key, entry);
      tenant.then(
        (found) => {
          if (!found)
            entry.expiresAt = Math.min(entry.expiresAt, Date.now() + this.config.tuning.unknownTenantTtlMs);
        },
        () => {
          if (this.cache.get(key) === entry) this.cache.delete(key);
        },
      );
    }
    return tenant;
  }

  private async lookUp(slug: string): Promise<ResolveTenantResponse | null> {
    try {
      const tenant = await this.services.request<ResolveTenantResponse, ResolveTenantRequest>(
        AuthSubjects.resolveTenant,
        { slug },
      );
      this.modes.heard(tenant);
      return tenant;
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return null;
      throw error;
    }
  }
}
