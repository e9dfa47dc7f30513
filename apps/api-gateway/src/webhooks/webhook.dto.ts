import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type WebhookDeliveryStatus } from '@cpc/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsString, MaxLength } from 'class-validator';
import {
  AssetPaginationBody,
  CursorPageQuery,
  CursorPaginationBody,
  LIST_PAGINATION_SCHEMA,
  PagePaginationBody,
  PageQuery,
} from '../common/asset-list-query.js';
import {
  ApiNullableInput,
  ApiOmittedWhenUnset,
  IsUuidString,
  NullableField,
  OptionalField,
} from '../common/dto-decorators.js';

const DATE_TIME = { type: 'string', format: 'date-time', example: '2026-05-04T10:20:30Z' } as const;

export class CreateWebhookBody {
  @ApiProperty({
    maxLength: 2048,
    example: 'https://example.com/webhooks/charging',
    description:
      'Where events are POSTed: https (http only where the operator allows it). Refused (errorKey ' +
      'forbidden_target) when the host resolves to a loopback, private, link-local, CGNAT, multicast or ' +
      'metadata address.',
  })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES, minItems: 1, description: 'The events to send.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  event_types: string[];

  @ApiNullableInput(
    { type: 'string', format: 'uuid' },
    { required: false, description: 'Only events of controllers at this location.' },
  )
  @NullableField()
  @IsUuidString()
  location_uuid?: string | null;

  @ApiNullableInput(
    { type: 'string', format: 'uuid' },
    { required: false, description: 'Only events of this controller.' },
  )
  @NullableField()
  @IsUuidString()
  controller_uuid?: string | null;

  @ApiPropertyOptional({ default: true })
  @OptionalField()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateWebhookBody extends PartialType(CreateWebhookBody, { skipNullProperties: false }) {}

export class WebhookListQuery extends PageQuery {}

export class WebhookDeliveryListQuery extends CursorPageQuery {
  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATUSES, description: 'Only deliveries in this status.' })
  @OptionalField()
  @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;
}

/** A webhook subscription; its secret is never part of it. */
export class WebhookBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES }) event_types: string[];
  @ApiOmittedWhenUnset({ type: 'string', format: 'uuid' }) location_uuid: string | null;
  @ApiOmittedWhenUnset({ type: 'string', format: 'uuid' }) controller_uuid: string | null;
  @ApiProperty() enabled: boolean;
  @ApiOmittedWhenUnset(
    { type: 'string' },
    { description: 'Why the platform disabled it (410 from the receiver, failing for 24 hours).' },
  )
  disabled_reason: string | null;
  @ApiOmittedWhenUnset(DATE_TIME, { description: 'Since when deliveries fail without a success in between.' })
  failing_since: string | null;
  @ApiOmittedWhenUnset(DATE_TIME, {
    description: 'Until when the previous secret still signs (after a rotation).',
  })
  previous_secret_expires_at: string | null;
  @ApiProperty(DATE_TIME) created_at: string;
  @ApiProperty(DATE_TIME) updated_at: string;
}

export class WebhookResponse {
  @ApiProperty({ type: WebhookBody }) webhook: WebhookBody;
}

export class WebhookWithSecretResponse {
  @ApiProperty({ type: WebhookBody }) webhook: WebhookBody;
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret (`whsec_` + base64 key): shown here only, store it now.',
  })
  secret: string;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookBody] }) webhooks: WebhookBody[];
  @ApiProperty({ type: AssetPaginationBody }) pagination: AssetPaginationBody;
}

/** One event for one subscription. */
export class WebhookDeliveryBody {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'The webhook-id header, the same on every attempt.' }) webhook_id: string;
  @ApiProperty({ enum: [...WEBHOOK_EVENT_TYPES, 'ping'] }) event_type: string;
  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES }) status: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) attempts: number;
  @ApiOmittedWhenUnset({ type: 'integer' }) last_response_code: number | null;
  @ApiOmittedWhenUnset(
    { type: 'string' },
    { description: 'The last failure: status and body excerpt, or error.' },
  )
  last_error: string | null;
  @ApiOmittedWhenUnset(DATE_TIME) last_attempt_at: string | null;
  @ApiOmittedWhenUnset(DATE_TIME, { description: 'When it is tried next, while pending.' })
  next_attempt_at: string | null;
  @ApiProperty(DATE_TIME) created_at: string;
  @ApiOmittedWhenUnset(DATE_TIME) delivered_at: string | null;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ type: WebhookDeliveryBody }) delivery: WebhookDeliveryBody;
}

export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryBody] }) deliveries: WebhookDeliveryBody[];
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
}
