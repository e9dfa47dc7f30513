import { Injectable } from '@nestjs/common';
import type { AssetPage, Principal, TenantScopedRequest } from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';

/** One NATS request to assets-service on behalf of the caller; the tenant travels only in the principal. */
@Injectable()
export class AssetRequests {
  constructor(private readonly serviceClient: ServiceClient) {}

  send<TResponse>(subject: string, principal: Principal, payload: unknown): Promise<TResponse> {
    return this.serviceClient.request<TResponse, TenantScopedRequest<unknown>>(subject, {
      principal,
      payload,
    });
  }

  /** A list request, answered in the spec's shape: `{<plural>: [...], pagination}`. */
  async list<TItem, TKey extends string>(
    subject: string,
    principal: Principal,
    payload: unknown,
    key: TKey,
  ): Promise<Record<TKey, TItem[]> & { pagination: AssetPage<TItem>['pagination'] }> {
    const page = await this.send<AssetPage<TItem>>(subject, principal, payload);
    return { [key]: page.items ?? [], pagination: page.pagination } as Record<TKey, TItem[]> & {
      pagination: AssetPage<TItem>['pagination'];
    };
  }
}
