import type { NatsCredentials } from '@cpc/config';
import { natsInboxPrefix } from '@cpc/contracts';

/** Where and as whom a service connects to NATS (CommonServiceConfig's NATS settings). */
export interface NatsConnectionSettings {
  natsUrl: string;
  /** Undefined against a broker without authentication. */
  natsCredentials: NatsCredentials | undefined;
}

/**
 * The nats.js options every connection of a service shares: the servers, and with credentials the user, its password
 * and the user's own inbox prefix, the only inboxes the broker lets that user subscribe to (NATS_USERS).
 */
export function natsClientOptions(settings: NatsConnectionSettings): {
  servers: string[];
  user?: string;
  pass?: string;
  inboxPrefix?: string;
} {
  const servers = settings.natsUrl.split(',').map((server) => server.trim());
  const credentials = settings.natsCredentials;
  if (!credentials) return { servers };
  return {
    servers,
    user: credentials.user,
    pass: credentials.password,
    inboxPrefix: natsInboxPrefix(credentials.user),
  };
}
