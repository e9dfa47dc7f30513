import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { OcppGatewaySubjects, UUID_PATTERN } from '@cpc/contracts';
import { TransactionalOutbox } from '@cpc/database';
import { NATS_CONNECTION, onNatsReconnect } from '@cpc/nats';
import { DispatchSignal } from './dispatch-signal.js';

/** The prefix of OcppGatewaySubjects.connectionOpened, up to the controller uuid. */
const CONNECTION_OPENED_PREFIX = OcppGatewaySubjects.connectionOpened('');

/**
 * What tells this instance's dispatcher that the way to a charge point changed, so a delivery that waits on the old
 * way is asked again at once instead of after its reply timeout, lease or recheck: the gateway's connection-opened
 * notices (core NATS, heard by every instance, sent once the new connection's call subject is served) and this
 * instance's NATS connection coming back (then the outbox relay also publishes what waited, instead of at its next
 * interval). Hints only: the durable connected event (ChargePointLifecycleConsumer) still wakes a waiting lane when
 * this instance misses a notice.
 */
@Injectable()
export class DeliveryWakeupsListener implements OnApplicationBootstrap {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly signal: DispatchSignal,
    private readonly outbox: TransactionalOutbox,
  ) {}

  onApplicationBootstrap(): void {
    this.nats.subscribe(OcppGatewaySubjects.connectionOpened('*'), {
      callback: (error, message) => {
        if (error) return;
        const controllerUuid = message.subject.slice(CONNECTION_OPENED_PREFIX.length);
        if (UUID_PATTERN.test(controllerUuid)) this.signal.chargePointConnected(controllerUuid);
      },
    });
    onNatsReconnect(this.nats, () => {
      this.signal.natsReconnected();
      void this.outbox.flush();
    });
  }
}
