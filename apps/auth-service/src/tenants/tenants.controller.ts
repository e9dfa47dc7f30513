import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuthSubjects, type ResolveTenantRequest, type ResolveTenantResponse } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { TenantsService, toResolvedTenant } from './tenants.service.js';

@Controller()
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  /** The ocpp-gateway's view of a tenant: charge points name it by slug in their URL. */
  @MessagePattern(AuthSubjects.resolveTenant)
  async resolve(@Payload() request: ResolveTenantRequest): Promise<ResolveTenantResponse> {
    const tenant =
      typeof request?.slug === 'string' ? await this.tenants.findActiveBySlug(request.slug) : null;
    if (!tenant) throw new NotFoundError('tenant');
    return toResolvedTenant(tenant);
  }
}
