import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CreatedWebhookSubscription,
  isUuid,
  type ListWebhookDeliveriesPayload,
  type ListWebhookSubscriptionsPayload,
  type WebhookDeliveryPage,
  type WebhookDeliveryView,
  type WebhookSubscriptionPage,
  type WebhookSubscriptionView,
} from '@cpc/contracts';
import { isForeignKeyViolation, runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { buildPagination, pageOffset } from '@cpc/pagination';
import { DataSource } from 'typeorm';
import { DeliverySignal } from '../delivery/delivery-signal.js';
import { webhookIdOf } from '../delivery/delivery-worker.js';
import { TargetGuard, TargetRefusedError } from '../delivery/target-guard.js';
import { webhookBody } from '../events/webhook-event-mapping.js';
import { type DeliveryRow, insertPing, retryDelivery } from '../repositories/deliveries.repository.js';
import {
  countSubscriptions,
  deleteSubscription,
  getSubscription,
  insertSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
  type SubscriptionRow,
  updateSubscription,
} from '../repositories/subscriptions.repository.js';
import { SecretBox } from '../signing/secret-box.js';
import { newSigningSecret } from '../signing/webhook-signature.js';
import { WEBHOOK_SERVICE_CONFIG } from '../webhook-service-config.token.js';
import type { WebhookServiceConfig } from '../webhook-service.config.js';
import { readDeliveriesPage } from './delivery-pages.js';
import { type CheckedFields, checkSubscriptionFields } from './subscription-fields.js';
import { SubscriptionIndex } from './subscription-index.js';

const SUBSCRIPTION = 'webhook subscription';

/** Subscriptions of one tenant: created, changed, rotated, deleted; their deliveries listed, retried, pinged. */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly guard: TargetGuard,
    private readonly signal: DeliverySignal,
    private readonly index: SubscriptionIndex,
    @Inject(WEBHOOK_SERVICE_CONFIG) private readonly config: WebhookServiceConfig,
  ) {}

  async create(tenantUuid: string, body: unknown): Promise<CreatedWebhookSubscription> {
    const fields = await this.checked(body, true);
    const uuid = randomUUID();
    const secret = newSigningSecret();
    const [row] = await runStatement(this.dataSource, insertSubscription, {
      uuid,
      tenantUuid,
      url: fields.url!.toString(),
      eventTypes: fields.eventTypes!,
      locationUuid: fields.locationUuid ?? null,
      controllerUuid: fields.controllerUuid ?? null,
      enabled: fields.enabled ?? true,
      secretCiphertext: this.secrets.seal(secret, uuid),
    });
    // Before answering: an event handled here from now on sees it (the other replicas hear of it).
    await this.index.changed(uuid);
    return { subscription: toView(row), secret };
  }

  async list(tenantUuid: string, payload: ListWebhookSubscriptionsPayload): Promise<WebhookSubscriptionPage> {
    const rows = await runStatement(this.dataSource, listSubscriptions, {
      tenantUuid,
      limit: payload.limit,
      offset: pageOffset(payload),
    });
    const total =
      rows.length > 0
        ? Number(rows[0].total)
        : Number((await runStatement(this.dataSource, countSubscriptions, { tenantUuid }))[0].total);
    return { items: rows.map(toView), pagination: buildPagination(payload, total) };
  }

  async get(tenantUuid: string, uuid: string): Promise<WebhookSubscriptionView> {
    return toView(await this.existing(tenantUuid, uuid));
  }

  async update(tenantUuid: string, uuid: string, changes: unknown): Promise<WebhookSubscriptionView> {
    await this.existing(tenantUuid, uuid);
    const fields = await this.checked(changes, false);
    const [row] = await runStatement(this.dataSource, updateSubscription, {
      tenantUuid,
      uuid,
      url: fields.url?.toString() ?? null,
      eventTypes: fields.eventTypes ?? null,
      setLocation: fields.locationUuid !== undefined,
      locationUuid: fields.locationUuid ?? null,
      setController: fields.controllerUuid !== undefined,
      controllerUuid: fields.controllerUuid ?? null,
      enabled: fields.enabled ?? null,
    });
    if (!row) throw new NotFoundError(SUBSCRIPTION);
    await this.index.changed(uuid);
    return toView(row);
  }

  async delete(tenantUuid: string, uuid: string): Promise<Record<string, never>> {
    requireUuid(uuid, SUBSCRIPTION);
    const deleted = await runStatement(this.dataSource, deleteSubscription, { tenantUuid, uuid });
    if (deleted.length === 0) throw new NotFoundError(SUBSCRIPTION);
    await this.index.changed(uuid);
    return {};
  }

  async rotateSecret(tenantUuid: string, uuid: string): Promise<CreatedWebhookSubscription> {
    requireUuid(uuid, SUBSCRIPTION);
    const secret = newSigningSecret();
    const [row] = await runStatement(this.dataSource, rotateSubscriptionSecret, {
      tenantUuid,
      uuid,
      secretCiphertext: this.secrets.seal(secret, uuid),
      previousExpiresAt: new Date(Date.now() + this.config.secretRotationGraceSeconds * 1000),
    });
    if (!row) throw new NotFoundError(SUBSCRIPTION);
    return { subscription: toView(row), secret };
  }

  /** Queues a `ping` for the subscription (sent like any event, signed, retried). */
  async test(tenantUuid: string, uuid: string): Promise<WebhookDeliveryView> {
    await this.existing(tenantUuid, uuid);
    const id = randomUUID();
    const [row] = await runStatement(this.dataSource, insertPing, {
      id,
      tenantUuid,
      subscriptionUuid: uuid,
      eventId: `ping-${id}`,
      orderingKey: `ping:${id}`,
      body: webhookBody('ping', new Date().toISOString(), { subscription_uuid: uuid }),
    }).catch((error: unknown) => {
      // Deleted since it was read: as if it had been gone already.
      if (isForeignKeyViolation(error)) throw new NotFoundError(SUBSCRIPTION);
      throw error;
    });
    this.signal.wake();
    return toDeliveryView(row);
  }

  async listDeliveries(
    tenantUuid: string,
    payload: ListWebhookDeliveriesPayload,
  ): Promise<WebhookDeliveryPage> {
    await this.existing(tenantUuid, payload.uuid);
    const { rows, pagination } = await readDeliveriesPage(this.dataSource, tenantUuid, payload);
    return { items: rows.map(toDeliveryView), pagination };
  }

  async retryDelivery(tenantUuid: string, uuid: string, deliveryId: string): Promise<WebhookDeliveryView> {
    requireUuid(uuid, SUBSCRIPTION);
    requireUuid(deliveryId, 'webhook delivery');
    const [row] = await runStatement(this.dataSource, retryDelivery, {
      tenantUuid,
      subscriptionUuid: uuid,
      id: deliveryId,
    });
    if (!row) throw new NotFoundError('webhook delivery');
    this.signal.wake();
    return toDeliveryView(row);
  }

  private async existing(tenantUuid: string, uuid: string): Promise<SubscriptionRow> {
    requireUuid(uuid, SUBSCRIPTION);
    const [row] = await runStatement(this.dataSource, getSubscription, { tenantUuid, uuid });
    if (!row) throw new NotFoundError(SUBSCRIPTION);
    return row;
  }

  /** The fields' shapes, then the URL's host: it must resolve to addresses receivers may have. */
  private async checked(body: unknown, required: boolean): Promise<CheckedFields> {
    const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
    const { fields, issues } = checkSubscriptionFields(object as Record<string, unknown>, {
      allowHttp: this.config.allowHttpTargets,
      required,
    });
    if (issues.length === 0 && fields.url) {
      try {
        await this.guard.resolve(fields.url.hostname);
      } catch (error) {
        if (!(error instanceof TargetRefusedError)) throw error;
        issues.push({
          parameter: 'url',
          errorKey: 'forbidden_target',
          message: `url refused: ${error.reason}`,
        });
      }
    }
    if (issues.length > 0) throw new ValidationFailedError(issues);
    return fields;
  }
}

/** A malformed id names nothing: not found, like a missing one. */
function requireUuid(value: unknown, what: string): void {
  if (!isUuid(value)) throw new NotFoundError(what);
}

function iso(value: Date | null): string | null {
  return value === null ? null : new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function toView(row: SubscriptionRow): WebhookSubscriptionView {
  return {
    uuid: row.uuid,
    url: row.url,
    event_types: row.event_types as WebhookSubscriptionView['event_types'],
    location_uuid: row.location_uuid,
    controller_uuid: row.controller_uuid,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    previous_secret_expires_at: iso(row.previous_secret_expires_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

function toDeliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    webhook_id: webhookIdOf(row.id),
    event_type: row.event_type as WebhookDeliveryView['event_type'],
    status: row.status as WebhookDeliveryView['status'],
    attempts: row.attempts,
    last_response_code: row.last_response_code,
    last_error: row.last_error,
    last_attempt_at: iso(row.last_attempt_at),
    next_attempt_at: iso(row.next_attempt_at),
    created_at: iso(row.created_at)!,
    delivered_at: iso(row.delivered_at),
  };
}
