import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { AuthSubjects, type SigningKeysChangedEvent } from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';
import { SigningKeyChangePublisher } from './signing-key-change-publisher.js';
import { SigningKeysService } from './signing-keys.service.js';

/**
 * In the running service: broadcasts key changes, and listens for changes made elsewhere (the admin CLI) so this
 * instance stops signing with a key that was rotated away.
 */
@Injectable()
export class NatsSigningKeyChangePublisher extends SigningKeyChangePublisher {
  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {
    super();
  }

  publish(event: SigningKeysChangedEvent): Promise<void> {
    this.connection.publish(AuthSubjects.signingKeysChanged, JSON.stringify(event));
    return this.connection.flush();
  }
}

@Injectable()
export class SigningKeyChangeListener implements OnApplicationBootstrap {
  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    private readonly signingKeys: SigningKeysService,
  ) {}

  onApplicationBootstrap(): void {
    this.connection.subscribe(AuthSubjects.signingKeysChanged, {
      callback: () => this.signingKeys.forgetCachedKey(),
    });
  }
}
