import type { Logger } from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import { natsClientOptions, type NatsConnectionSettings } from '@cpc/nats';
import { describeError } from '@cpc/errors';

/**
 * From the CLI, announcing a change over NATS is best effort: the command's own result must not depend on the
 * broker, and each announced change also reaches its listeners another way (`otherwise` says which, for the warning).
 */
export async function announceOverNats(
  nats: NatsConnectionSettings,
  subject: string,
  event: object,
  logger: Logger,
  otherwise: string,
): Promise<void> {
  try {
    const connection = await connect({
      // The CLI logs in as auth-service (the same NATS_USER and NATS_PASSWORD).
      ...natsClientOptions(nats),
      timeout: 2000,
      reconnect: false,
      name: 'auth-admin-cli',
    });
    connection.publish(subject, JSON.stringify(event));
    await connection.drain();
  } catch (error) {
    logger.warn(`could not announce the change over NATS (${describeError(error)}); ${otherwise}`);
  }
}
