import { Logger } from '@nestjs/common';
import { type AccountsRevokedEvent, AuthSubjects, type SigningKeysChangedEvent } from '@cpc/contracts';
import type { NatsConnectionSettings } from '@cpc/nats';
import { SigningKeyChangePublisher } from '../signing-keys/signing-key-change-publisher.js';
import { AccountRevocationPublisher } from '../tokens/account-revocation-publisher.js';
import { announceOverNats } from './cli-nats-announcement.js';

/** Key changes from the CLI: when NATS is not reachable the gateways still see them through their key cache expiry. */
export class CliSigningKeyChangePublisher extends SigningKeyChangePublisher {
  private readonly logger = new Logger('admin');

  constructor(private readonly nats: NatsConnectionSettings) {
    super();
  }

  publish(event: SigningKeysChangedEvent): Promise<void> {
    const otherwise = 'caches expire within 5 minutes';
    return announceOverNats(this.nats, AuthSubjects.signingKeysChanged, event, this.logger, otherwise);
  }
}

/** Revocations from the CLI: when NATS is not reachable the gateways still read them at their next poll. */
export class CliAccountRevocationPublisher extends AccountRevocationPublisher {
  private readonly logger = new Logger('admin');

  constructor(private readonly nats: NatsConnectionSettings) {
    super();
  }

  publish(event: AccountsRevokedEvent): Promise<void> {
    const otherwise = 'api-gateways read it at their next poll (REVOCATION_POLL_INTERVAL_SECONDS)';
    return announceOverNats(this.nats, AuthSubjects.accountsRevoked, event, this.logger, otherwise);
  }
}
