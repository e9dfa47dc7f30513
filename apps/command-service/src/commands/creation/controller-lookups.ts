import { Injectable } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { AssetsSubjects, type ControllersExistRequest, type ControllersExistResponse } from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';

type ControllerReference = ControllersExistRequest['controllers'][number];

/**
 * Asks assets-service whether the controllers that commands are created for exist for their tenants, many per
 * request: every creation needs the answer, and a request of its own cost more (in assets-service, NATS and here)
 * than its insert. At most two requests are out; a creation alone never waits, under load the creations of a moment
 * share one request (of at most 500: assets-service takes up to 1,000).
 */
@Injectable()
export class ControllerLookups {
  private readonly lookups = new GroupedCalls<ControllerReference, boolean>((group) => this.ask(group), {
    maxInFlight: 2,
    maxGroup: 500,
  });

  constructor(private readonly services: ServiceClient) {}

  /** Whether the controller exists for the tenant; rejects as the request does (service_unavailable, ...). */
  exists(tenantUuid: string, uuid: string): Promise<boolean> {
    return this.lookups.call({ tenantUuid, uuid });
  }

  private async ask(group: GroupedCall<ControllerReference, boolean>[]): Promise<void> {
    const { exists } = await this.services.request<ControllersExistResponse, ControllersExistRequest>(
      AssetsSubjects.controllersExist,
      { controllers: group.map((call) => call.item) },
    );
    group.forEach((call, index) => call.resolve(exists[index] === true));
  }
}
