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

/**
 * How every long-lived connection of a service reconnects (the raw connection, Nest's server and its RPC client):
 * forever, since a NATS restart must not take a service down (nats.js gives up after 10 attempts by default, which
 * left Nest's transports closed for good after 20 s without a server), and every 500 ms (nats.js: 2 s), so a service
 * answers again within half a second of the server being back instead of up to two seconds later.
 */
export const NATS_RECONNECT_OPTIONS = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 500,
} as const;
