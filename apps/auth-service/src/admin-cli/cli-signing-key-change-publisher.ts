import { Logger } from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import { AuthSubjects, type SigningKeysChangedEvent } from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { SigningKeyChangePublisher } from '../signing-keys/signing-key-change-publisher.js';

/**
 * From the CLI, announcing a key change is best effort: when NATS is not reachable the gateways still see the change
 * through their key cache expiry, and the command's own result must not depend on the broker.
 */
export class CliSigningKeyChangePublisher extends SigningKeyChangePublisher {
  private readonly logger = new Logger('admin');

  constructor(private readonly natsUrl: string) {
    super();
  }

  async publish(event: SigningKeysChangedEvent): Promise<void> {
    try {
      const connection = await connect({
        servers: this.natsUrl.split(','),
        timeout: 2000,
        reconnect: false,
        name: 'auth-admin-cli',
      });
      connection.publish(AuthSubjects.signingKeysChanged, JSON.stringify(event));
      await connection.drain();
    } catch (error) {
      this.logger.warn(
        `could not announce the key change over NATS (${describeError(error)}); caches expire within 5 minutes`,
      );
    }
  }
}
