import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CreatedWebhookSubscription,
  type CreateWebhookSubscriptionPayload,
  type ListWebhookDeliveriesPayload,
  type ListWebhookSubscriptionsPayload,
  type RetryWebhookDeliveryPayload,
  type TenantScopedRequest,
  type UpdateWebhookSubscriptionPayload,
  type WebhookDeliveryPage,
  type WebhookDeliveryView,
  WebhookSubjects,
  type WebhookSubscriptionPage,
  type WebhookSubscriptionUuidPayload,
  type WebhookSubscriptionView,
} from '@cpc/contracts';
import { SubscriptionsService } from './subscriptions.service.js';

type Scoped<T> = TenantScopedRequest<T>;

/** NATS handlers of webhook subscriptions; the tenant always comes from the principal. */
@Controller()
export class SubscriptionsHandler {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @MessagePattern(WebhookSubjects.list)
  list(@Payload() request: Scoped<ListWebhookSubscriptionsPayload>): Promise<WebhookSubscriptionPage> {
    return this.subscriptions.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(WebhookSubjects.create)
  create(@Payload() request: Scoped<CreateWebhookSubscriptionPayload>): Promise<CreatedWebhookSubscription> {
    return this.subscriptions.create(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(WebhookSubjects.get)
  get(@Payload() request: Scoped<WebhookSubscriptionUuidPayload>): Promise<WebhookSubscriptionView> {
    return this.subscriptions.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(WebhookSubjects.update)
  update(@Payload() request: Scoped<UpdateWebhookSubscriptionPayload>): Promise<WebhookSubscriptionView> {
    return this.subscriptions.update(
      request.principal.tenantUuid,
      request.payload.uuid,
      request.payload.changes,
    );
  }

  @MessagePattern(WebhookSubjects.delete)
  delete(@Payload() request: Scoped<WebhookSubscriptionUuidPayload>): Promise<Record<string, never>> {
    return this.subscriptions.delete(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(WebhookSubjects.rotateSecret)
  rotateSecret(
    @Payload() request: Scoped<WebhookSubscriptionUuidPayload>,
  ): Promise<CreatedWebhookSubscription> {
    return this.subscriptions.rotateSecret(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(WebhookSubjects.test)
  test(@Payload() request: Scoped<WebhookSubscriptionUuidPayload>): Promise<WebhookDeliveryView> {
    return this.subscriptions.test(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(WebhookSubjects.listDeliveries)
  listDeliveries(@Payload() request: Scoped<ListWebhookDeliveriesPayload>): Promise<WebhookDeliveryPage> {
    return this.subscriptions.listDeliveries(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(WebhookSubjects.retryDelivery)
  retryDelivery(@Payload() request: Scoped<RetryWebhookDeliveryPayload>): Promise<WebhookDeliveryView> {
    const { uuid, deliveryId } = request.payload;
    return this.subscriptions.retryDelivery(request.principal.tenantUuid, uuid, deliveryId);
  }
}
