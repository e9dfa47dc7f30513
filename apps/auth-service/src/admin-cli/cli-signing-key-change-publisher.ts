import { Logger } from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import { AuthSubjects, type SigningKeysChangedEvent } from '@cpc/contracts';
import { natsClientOptions, type NatsConnectionSettings } from '@cpc/nats';
import { SigningKeyChangePublisher } from '../signing-keys/signing-key-change-publisher.js';

/**
 * From the CLI, announcing a key change is best effort: when NATS is not reachable the gateways still see the change
 * through their key cache expiry, and the command's own result must not depend on the broker.
 */
export class CliSigningKeyChangePublisher extends SigningKeyChangePublisher {
  private readonly logger = new Logger('admin');

  /** The CLI logs in as auth-service (the same NATS_USER and NATS_PASSWORD). */
  constructor(private readonly nats: NatsConnectionSettings) {
    super();
  }

  async publish(event: SigningKeysChangedEvent): Promise<void> {
    try {
      const connection = await connect({
        ...natsClientOptions(this.nats),
        timeout: 2000,
        reconnect: false,
        name: 'auth-admin-cli',
      });
      connection.publish(AuthSubjects.signingKeysChanged, JSON.stringify(event));
      await connection.drain();
    } catch (error) {
      this.logger.warn(
        `could not announce the key change over NATS (${error instanceof Error ? error.message : String(error)}); caches expire within 5 minutes`,
      );
    }
  }
}
