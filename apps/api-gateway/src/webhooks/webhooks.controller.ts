import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiExtraModels,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import {
  type CreatedWebhookSubscription,
  type Principal,
  type TenantScopedRequest,
  type WebhookDeliveryPage,
  type WebhookDeliveryView,
  WebhookSubjects,
  type WebhookSubscriptionPage,
  type WebhookSubscriptionView,
} from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';
import { DEFAULT_PAGE_SIZE } from '@cpc/pagination';
import { CurrentPrincipal } from '../authentication/current-principal.decorator.js';
import { RequirePermission } from '../authentication/require-permission.decorator.js';
import { AssetUuidPipe } from '../common/asset-uuid.pipe.js';
import { CursorPaginationBody, EmptyBody, PagePaginationBody } from '../common/asset-list-query.js';
import { ApiErrorResponses, BODY_ERROR_STATUSES, STANDARD_ERROR_STATUSES } from '../openapi/error-bodies.js';
import {
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookDeliveryListQuery,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookListQuery,
  WebhookListResponse,
  WebhookResponse,
  WebhookWithSecretResponse,
} from './webhook.dto.js';

/**
 * `{uuid}` followed by a custom method (`:rotate-secret`): a route parameter needs a pattern to end before the colon
 * (find-my-way; `(^…)` is the form @nestjs/swagger leaves out of the document), and `::` is a literal colon. The OpenAPI document shows these paths as `{uuid}:rotate-secret`.
 */
const UUID_PARAMETER = ':uuid(^[0-9a-fA-F-]{36})';
const DELIVERY_ID_PARAMETER = ':id(^[0-9a-fA-F-]{36})';

const ApiWebhookUuid = () =>
  ApiParam({
    name: 'uuid',
    description: 'Webhook subscription UUID',
    schema: { type: 'string', format: 'uuid' },
  });

/** Webhook subscriptions (webhook-service): where events are sent, and what came of each delivery. */
@ApiTags('webhooks')
@ApiExtraModels(PagePaginationBody, CursorPaginationBody)
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly services: ServiceClient) {}

  private send<T>(subject: string, principal: Principal, payload: unknown): Promise<T> {
    return this.services.request<T, TenantScopedRequest<unknown>>(subject, { principal, payload });
  }

  @Post()
  @HttpCode(201)
  @RequirePermission('webhooks:subscriptions:create')
  @ApiOperation({
    summary: 'Create a webhook subscription',
    description: 'Answers with the signing secret, which is never shown again (rotate it to get a new one).',
  })
  @ApiCreatedResponse({ type: WebhookWithSecretResponse })
  @ApiErrorResponses([...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES])
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWebhookBody,
  ): Promise<{ webhook: WebhookSubscriptionView; secret: string }> {
    const created = await this.send<CreatedWebhookSubscription>(WebhookSubjects.create, principal, {
      ...body,
    });
    return { webhook: created.subscription, secret: created.secret };
  }

  @Get()
  @RequirePermission('webhooks:subscriptions:list')
  @ApiOperation({ summary: 'List webhook subscriptions', description: 'Newest first.' })
  @ApiOkResponse({ type: WebhookListResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: WebhookListQuery,
  ): Promise<{ webhooks: WebhookSubscriptionView[]; pagination: WebhookSubscriptionPage['pagination'] }> {
    const page = await this.send<WebhookSubscriptionPage>(WebhookSubjects.list, principal, {
      page: query.page ?? 1,
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
    });
    return { webhooks: page.items, pagination: page.pagination };
  }

  @Get(':uuid')
  @RequirePermission('webhooks:subscriptions:read')
  @ApiOperation({ summary: 'Read a webhook subscription' })
  @ApiWebhookUuid()
  @ApiOkResponse({ type: WebhookResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ webhook: WebhookSubscriptionView }> {
    return { webhook: await this.send(WebhookSubjects.get, principal, { uuid }) };
  }

  @Patch(':uuid')
  @RequirePermission('webhooks:subscriptions:update')
  @ApiOperation({
    summary: 'Change some fields of a webhook subscription',
    description: 'Setting `enabled` to true clears `disabled_reason` and `failing_since`.',
  })
  @ApiWebhookUuid()
  @ApiOkResponse({ type: WebhookResponse })
  @ApiErrorResponses([...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES])
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdateWebhookBody,
  ): Promise<{ webhook: WebhookSubscriptionView }> {
    return { webhook: await this.send(WebhookSubjects.update, principal, { uuid, changes: { ...body } }) };
  }

  @Delete(':uuid')
  @HttpCode(200)
  @RequirePermission('webhooks:subscriptions:delete')
  @ApiOperation({
    summary: 'Delete a webhook subscription',
    description: 'Its pending deliveries are dropped.',
  })
  @ApiWebhookUuid()
  @ApiOkResponse({ type: EmptyBody, description: 'Deleted; the body is an empty object.' })
  @ApiErrorResponses([...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES])
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<Record<string, never>> {
    return this.send(WebhookSubjects.delete, principal, { uuid });
  }

  @Post(`${UUID_PARAMETER}::rotate-secret`)
  @HttpCode(200)
  @RequirePermission('webhooks:subscriptions:update')
  @ApiOperation({
    summary: "Rotate a webhook subscription's signing secret",
    description:
      'Answers with the new secret (shown only here). The previous one keeps signing beside it until ' +
      '`previous_secret_expires_at`: each delivery then carries two `v1,` signatures.',
  })
  @ApiWebhookUuid()
  @ApiOkResponse({ type: WebhookWithSecretResponse })
  @ApiErrorResponses([...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES])
  async rotateSecret(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ webhook: WebhookSubscriptionView; secret: string }> {
    const rotated = await this.send<CreatedWebhookSubscription>(WebhookSubjects.rotateSecret, principal, {
      uuid,
    });
    return { webhook: rotated.subscription, secret: rotated.secret };
  }

  @Post(`${UUID_PARAMETER}::test`)
  @HttpCode(202)
  @RequirePermission('webhooks:subscriptions:update')
  @ApiOperation({
    summary: 'Send a ping event to a webhook subscription',
    description: 'Queues a signed `ping`; its outcome shows in the deliveries.',
  })
  @ApiWebhookUuid()
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  @ApiErrorResponses([...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES])
  async test(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ delivery: WebhookDeliveryView }> {
    return { delivery: await this.send(WebhookSubjects.test, principal, { uuid }) };
  }

  @Get(':uuid/deliveries')
  @RequirePermission('webhooks:subscriptions:read')
  @ApiOperation({
    summary: "List a webhook subscription's deliveries",
    description: 'Newest first: status, attempts, last response code and time, next attempt.',
  })
  @ApiWebhookUuid()
  @ApiOkResponse({ type: WebhookDeliveryListResponse })
  @ApiErrorResponses(STANDARD_ERROR_STATUSES)
  async listDeliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Query() query: WebhookDeliveryListQuery,
  ): Promise<{ deliveries: WebhookDeliveryView[]; pagination: WebhookDeliveryPage['pagination'] }> {
    const page = await this.send<WebhookDeliveryPage>(WebhookSubjects.listDeliveries, principal, {
      uuid,
      page: query.page ?? 1,
      limit: query.limit ?? query.page_size ?? DEFAULT_PAGE_SIZE,
      status: query.status,
      cursor: query.cursor,
    });
    return { deliveries: page.items, pagination: page.pagination };
  }

  @Post(`:uuid/deliveries/${DELIVERY_ID_PARAMETER}::retry`)
  @HttpCode(202)
  @RequirePermission('webhooks:subscriptions:update')
  @ApiOperation({
    summary: 'Send a delivery again',
    description:
      'A failed or delivered delivery is pending again and sent at once, with the same webhook-id.',
  })
  @ApiWebhookUuid()
  @ApiParam({ name: 'id', description: 'Delivery id', schema: { type: 'string', format: 'uuid' } })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  @ApiErrorResponses([...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES])
  async retryDelivery(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Param('id', AssetUuidPipe) id: string,
  ): Promise<{ delivery: WebhookDeliveryView }> {
    return { delivery: await this.send(WebhookSubjects.retryDelivery, principal, { uuid, deliveryId: id }) };
  }
}
