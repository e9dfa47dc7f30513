import type { SigningKeysChangedEvent } from '@cpc/contracts';

/**
 * Tells every api-gateway and auth-service instance that the key set changed, so a revoked key stops verifying and a
 * new key starts signing at once rather than when caches expire. Provided differently by the service and the CLI.
 */
export abstract class SigningKeyChangePublisher {
  abstract publish(event: SigningKeysChangedEvent): Promise<void>;
}
