import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

/** Standard Webhooks' secret prefix. */
export const SECRET_PREFIX = 'whsec_';
/** Bytes of a new signing key (Standard Webhooks asks for 24 to 64). */
const SECRET_KEY_BYTES = 32;

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_KEY_BYTES).toString('base64')}`;
}

/** The Standard Webhooks headers of one attempt (the id and body are the same on every attempt). */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The HMAC key of a signing secret: the base64-decoded part after `whsec_`. */
export function signingKeyOf(secret: string): KeyObject {
  return createSecretKey(
    Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64'),
  );
}

/**
 * `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under each key (signingKeyOf), separated by spaces (the current
 * secret's first, then one in its rotation grace period).
 */
export function signWebhook(
  keys: readonly KeyObject[],
  webhookId: string,
  timestampSeconds: number,
  body: string,
): WebhookHeaders {
  const signed = `${webhookId}.${timestampSeconds}.${body}`;
  const signatures = keys.map(
    (key) => `v1,${createHmac('sha256', key).update(signed, 'utf8').digest('base64')}`,
  );
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatures.join(' '),
  };
}
