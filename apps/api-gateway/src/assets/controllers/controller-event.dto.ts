import { ApiProperty } from '@nestjs/swagger';
import { CONTROLLER_EVENT_KINDS, type ControllerEventKind } from '@cpc/contracts';
import { IsIn, IsISO8601 } from 'class-validator';
import {
  CursorPageQuery,
  CursorPaginationBody,
  FilterQuery,
  LIST_PAGINATION_SCHEMA,
  PagePaginationBody,
} from '../../common/asset-list-query.js';
import { OptionalField } from '../../common/dto-decorators.js';

export class ControllerEventFilterQuery {
  @OptionalField() @IsIn(CONTROLLER_EVENT_KINDS) kind?: ControllerEventKind;
  @OptionalField() @IsISO8601({ strict: true }) occurred_from?: string;
  @OptionalField() @IsISO8601({ strict: true }) occurred_to?: string;
}

export const CONTROLLER_EVENT_FILTER_DOCS = {
  kind: { type: 'string', enum: CONTROLLER_EVENT_KINDS },
  occurred_from: { type: 'string', format: 'date-time', description: 'Events at or after.' },
  occurred_to: { type: 'string', format: 'date-time', description: 'Events before.' },
};

export class ControllerEventListQuery extends CursorPageQuery {
  @FilterQuery(() => ControllerEventFilterQuery) filter?: ControllerEventFilterQuery;
}

/** One entry of a controller's event log. */
export class ControllerEventBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ enum: CONTROLLER_EVENT_KINDS }) kind: ControllerEventKind;
  @ApiProperty({ type: 'string', format: 'date-time', example: '2025-05-04T10:20:30Z' }) occurred_at: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
      nullable: true,
    },
    description:
      'The event in snake case: connected {protocol, gateway_instance}; disconnected {reason, close_code, ' +
      'gateway_instance}; booted {vendor, model, serial_number, firmware_version}; status_changed {connector_id, ' +
      'evse_id, status, error_code, reported_at}; firmware_status and diagnostics_status {status, request_id}; ' +
      'security_event {type, tech_info, reported_at}; authorization_refused {id_token, result, reason, message_kind}; ' +
      'reservation_status {reservation_id, status} (2.0.1 ReservationStatusUpdate).',
  })
  details: Record<string, string | number | boolean | null>;
}

export class ControllerEventListResponse {
  @ApiProperty({ type: [ControllerEventBody] }) events: ControllerEventBody[];
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
}
