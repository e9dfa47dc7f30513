import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { AuthSubjects, type AccountsRevokedEvent } from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';

/**
 * Tells every api-gateway at once that accounts were revoked. Best effort by design: the gateways also poll the
 * revocations (auth.revocations.list.v1), so a lost announcement delays a revocation by one poll, no more.
 * Provided differently by the service and the admin CLI.
 */
export abstract class AccountRevocationPublisher {
  abstract publish(event: AccountsRevokedEvent): Promise<void>;
}

@Injectable()
export class NatsAccountRevocationPublisher extends AccountRevocationPublisher {
  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {
    super();
  }

  publish(event: AccountsRevokedEvent): Promise<void> {
    this.connection.publish(AuthSubjects.accountsRevoked, JSON.stringify(event));
    return this.connection.flush();
  }
}
