import { Injectable } from '@nestjs/common';
import type { AdminRequest, Principal } from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';

/**
 * A change through the admin API, sent to auth-service on behalf of the caller: the tenant and the caller's grants
 * travel only in the principal, and the client address (Fastify's `request.ip`, which believes X-Forwarded-For only
 * from TRUSTED_PROXIES) goes to the audit log. Reads go through AssetRequests, as every tenant-scoped read does.
 */
@Injectable()
export class AdminRequests {
  constructor(private readonly serviceClient: ServiceClient) {}

  change<TResponse>(subject: string, principal: Principal, clientAddress: string, payload: unknown) {
    return this.serviceClient.request<TResponse, AdminRequest<unknown>>(subject, {
      principal,
      payload,
      clientAddress,
    });
  }
}
