import type { AssetPage, ListPagination } from '../assets/asset-list.contract.js';

/**
 * Webhook subscriptions and their deliveries, kept by webhook-service (schema `webhooks`). Request/reply subjects take
 * a `TenantScopedRequest<payload>`; another tenant's subscription answers not_found like a missing one.
 */
export const WebhookSubjects = {
  /** ListWebhookSubscriptionsPayload → WebhookSubscriptionPage */
  list: 'webhooks.subscription.list.v1',
  /** CreateWebhookSubscriptionPayload → CreatedWebhookSubscription (the only answer holding the secret) */
  create: 'webhooks.subscription.create.v1',
  /** WebhookSubscriptionUuidPayload → WebhookSubscriptionView */
  get: 'webhooks.subscription.get.v1',
  /** UpdateWebhookSubscriptionPayload → WebhookSubscriptionView */
  update: 'webhooks.subscription.update.v1',
  /** WebhookSubscriptionUuidPayload → `{}` */
  delete: 'webhooks.subscription.delete.v1',
  /** WebhookSubscriptionUuidPayload → CreatedWebhookSubscription (the new secret, shown once) */
  rotateSecret: 'webhooks.subscription.rotate-secret.v1',
  /** WebhookSubscriptionUuidPayload → WebhookDeliveryView (the ping, queued) */
  test: 'webhooks.subscription.test.v1',
  /** ListWebhookDeliveriesPayload → WebhookDeliveryPage */
  listDeliveries: 'webhooks.delivery.list.v1',
  /** RetryWebhookDeliveryPayload → WebhookDeliveryView */
  retryDelivery: 'webhooks.delivery.retry.v1',
} as const;

/**
 * Core-NATS broadcasts among webhook-service's own replicas (only webhook-service may publish or hear them). Versioned:
 * a breaking payload change gets a new subject.
 */
export const WebhookBroadcastSubjects = {
  /**
   * broadcast (no queue group): WebhookSubscriptionChangedNotice, after a subscription was created, changed, deleted
   * or disabled; every replica reads it again for its index of enabled subscriptions.
   */
  subscriptionChanged: 'webhooks.subscription.changed.v1',
} as const;

export interface WebhookSubscriptionChangedNotice {
  subscriptionUuid: string;
}

/** The event types a subscription can ask for (`ping` is only sent by `:test`). */
export const WEBHOOK_EVENT_TYPES = [
  'command.status_changed',
  'controller.connection_changed',
  'plug.status_changed',
  'charging_session.started',
  'charging_session.updated',
  'charging_session.ended',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** A subscription as the API shows it; the secret never appears here. */
export interface WebhookSubscriptionView {
  uuid: string;
  url: string;
  event_types: WebhookEventType[];
  location_uuid: string | null;
  controller_uuid: string | null;
  enabled: boolean;
  /** Why webhook-service disabled it (410 from the receiver, failing for 24 h); null when enabled by its owner. */
  disabled_reason: string | null;
  /** Since when deliveries have been failing without a success in between; null when healthy. */
  failing_since: string | null;
  /** Until when the previous secret still signs beside the current one (after a rotation); null otherwise. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CreatedWebhookSubscription {
  subscription: WebhookSubscriptionView;
  /** `whsec_` + base64 of the key; shown at creation and rotation only. */
  secret: string;
}

export interface WebhookSubscriptionFields {
  url: string;
  event_types: WebhookEventType[];
  location_uuid?: string | null;
  controller_uuid?: string | null;
  enabled?: boolean;
}

export type CreateWebhookSubscriptionPayload = WebhookSubscriptionFields;

export interface UpdateWebhookSubscriptionPayload {
  uuid: string;
  /** Only the fields the caller sent. */
  changes: Partial<WebhookSubscriptionFields>;
}

export interface WebhookSubscriptionUuidPayload {
  uuid: string;
}

export interface ListWebhookSubscriptionsPayload {
  page: number;
  limit: number;
}

export interface ListWebhookDeliveriesPayload {
  uuid: string;
  page: number;
  limit: number;
  status?: WebhookDeliveryStatus;
  /** Read by cursor (keyset) instead of by page number. */
  cursor?: string;
}

export interface RetryWebhookDeliveryPayload {
  uuid: string;
  deliveryId: string;
}

/** One event for one subscription: what was sent, how often, and what came back. */
export interface WebhookDeliveryView {
  id: string;
  /** The `webhook-id` header: the same on every attempt. */
  webhook_id: string;
  event_type: WebhookEventType | 'ping';
  status: WebhookDeliveryStatus;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

export type WebhookSubscriptionPage = AssetPage<WebhookSubscriptionView>;
export interface WebhookDeliveryPage {
  items: WebhookDeliveryView[];
  pagination: ListPagination;
}
