import { Injectable } from '@nestjs/common';
import { AssetsSubjects, type ControllersExistRequest, type ControllersExistResponse } from '@cpc/contracts';
import { runWithRequestId } from '@cpc/logging';
import { ServiceClient } from '@cpc/nats';

interface QueuedLookup {
  controller: { tenantUuid: string; uuid: string };
  resolve: (exists: boolean) => void;
  reject: (error: unknown) => void;
}

/** Requests in flight at once; lookups that arrive meanwhile go together into the next one. */
const MAX_IN_FLIGHT = 2;
/** Largest request (assets-service takes up to 1,000). */
const MAX_BATCH = 500;

/**
 * Asks assets-service whether the controllers that commands are created for exist for their tenants, many per
 * request: every creation needs the answer, and a request of its own cost more (in assets-service, NATS and here)
 * than its insert. A lookup goes out at once when fewer than MAX_IN_FLIGHT requests are out, so one creation alone
 * never waits; under load the creations of a moment share one request.
 */
@Injectable()
export class ControllerLookups {
  private queued: QueuedLookup[] = [];
  private inFlight = 0;

  constructor(private readonly services: ServiceClient) {}

  /** Whether the controller exists for the tenant; rejects as the request does (service_unavailable, ...). */
  exists(tenantUuid: string, uuid: string): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queued.push({ controller: { tenantUuid, uuid }, resolve, reject });
      this.sendQueued();
    });
  }

  private sendQueued(): void {
    if (this.inFlight >= MAX_IN_FLIGHT || this.queued.length === 0) return;
    const batch = this.queued.splice(0, MAX_BATCH);
    this.inFlight += 1;
    // A request id of its own: the request serves several API requests, not the one that happened to send it.
    void runWithRequestId(undefined, () => this.send(batch)).finally(() => {
      this.inFlight -= 1;
      this.sendQueued();
    });
  }

  private async send(batch: QueuedLookup[]): Promise<void> {
    try {
      const { exists } = await this.services.request<ControllersExistResponse, ControllersExistRequest>(
        AssetsSubjects.controllersExist,
        { controllers: batch.map((queued) => queued.controller) },
      );
      batch.forEach((queued, index) => queued.resolve(exists[index] === true));
    } catch (error) {
      for (const queued of batch) queued.reject(error);
    }
  }
}
