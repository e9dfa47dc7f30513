import { createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { AdminRequest, Principal } from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';

/** Who asks for an admin change: its principal and its client address, for the audit log. */
export interface AdminCaller {
  principal: Principal;
  /** Fastify's `request.ip`: the TCP peer, or X-Forwarded-For only when the peer is in TRUSTED_PROXIES. */
  clientAddress: string;
}

/** The caller of an admin change (after the guards: the principal is the verified token's). */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AdminCaller => {
    const request = context.switchToHttp().getRequest<{ user: Principal; ip: string }>();
    return { principal: request.user, clientAddress: request.ip };
  },
);

/**
 * A change through the admin API, sent to auth-service on behalf of the caller: the tenant and the caller's grants
 * travel only in the principal, the client address goes to the audit log. Reads go through AssetRequests, as every
 * tenant-scoped read does.
 */
@Injectable()
export class AdminRequests {
  constructor(private readonly serviceClient: ServiceClient) {}

  /** The changed object, answered as `{<key>: object}`. */
  async change<TKey extends string, TView>(
    key: TKey,
    subject: string,
    caller: AdminCaller,
    payload: unknown,
  ): Promise<Record<TKey, TView>> {
    return { [key]: await this.send<TView>(subject, caller, payload) } as Record<TKey, TView>;
  }

  /** A delete or revocation, answered `{}`. */
  async remove(subject: string, caller: AdminCaller, uuid: string): Promise<Record<string, never>> {
    await this.send(subject, caller, { uuid });
    return {};
  }

  private send<TResponse>(subject: string, caller: AdminCaller, payload: unknown): Promise<TResponse> {
    return this.serviceClient.request<TResponse, AdminRequest<unknown>>(subject, { ...caller, payload });
  }
}
