import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CHARGING_SESSION_SORT_FIELDS,
  CHARGING_SESSION_STATUSES,
  type ChargingSessionFilter,
  type ChargingSessionStatus,
} from '@cpc/contracts';
import { IsIn, IsISO8601, IsString, Length, Matches } from 'class-validator';
import {
  CursorPageQuery,
  CursorPaginationBody,
  FilterQuery,
  LIST_PAGINATION_SCHEMA,
  PagePaginationBody,
} from '../common/asset-list-query.js';
import {
  ApiOmittedWhenUnset,
  IsUuidString,
  OptionalField,
  OrderByTransform,
  orderByPattern,
} from '../common/dto-decorators.js';

export class ChargingSessionFilterQuery implements ChargingSessionFilter {
  @OptionalField() @IsUuidString() controller_uuid?: string;
  @OptionalField() @IsUuidString() plug_uuid?: string;
  @OptionalField() @IsIn(CHARGING_SESSION_STATUSES) status?: ChargingSessionStatus;
  @OptionalField() @IsString() @Length(1, 36) id_tag?: string;
  @OptionalField() @IsString() @Length(1, 36) ocpp_transaction_id?: string;
  @OptionalField() @IsISO8601({ strict: true }) started_from?: string;
  @OptionalField() @IsISO8601({ strict: true }) started_to?: string;
}

export const CHARGING_SESSION_FILTER_DOCS = {
  controller_uuid: { type: 'string', format: 'uuid' },
  plug_uuid: { type: 'string', format: 'uuid' },
  status: {
    type: 'string',
    enum: CHARGING_SESSION_STATUSES,
    description: 'active until the charge point ends it',
  },
  id_tag: { type: 'string', description: 'The id tag / id token that started the session.' },
  ocpp_transaction_id: { type: 'string' },
  started_from: { type: 'string', format: 'date-time', description: 'Sessions started at or after.' },
  started_to: { type: 'string', format: 'date-time', description: 'Sessions started before.' },
};

const ORDER_BY = orderByPattern(CHARGING_SESSION_SORT_FIELDS);

/** `order_by` over the session's sortable fields; the default is newest start first. */
const SessionOrderByQuery = () =>
  applyDecorators(
    ApiPropertyOptional({
      pattern: ORDER_BY.source,
      example: '-started_at',
      description:
        'Comma-separated fields, each prefixed with + (ascending) or - (descending); default -started_at. Send + as ' +
        `%2B. Fields: ${CHARGING_SESSION_SORT_FIELDS.join(', ')}.`,
    }),
    OptionalField(),
    OrderByTransform(),
    IsString(),
    Matches(ORDER_BY, { message: `order_by must match ${ORDER_BY.source}` }),
  );

export class ChargingSessionListQuery extends CursorPageQuery {
  @SessionOrderByQuery() order_by?: string;
  @FilterQuery(() => ChargingSessionFilterQuery) filter?: ChargingSessionFilterQuery;
}

const DATE_TIME = { type: 'string', format: 'date-time', example: '2025-05-04T10:20:30Z' } as const;

/** A charging session: one transaction of one charge point, as the charge point reported it. */
export class ChargingSessionBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ format: 'uuid' }) controller_uuid: string;
  @ApiOmittedWhenUnset({ type: 'string', format: 'uuid' }, { description: 'Null until the plug is known.' })
  plug_uuid: string | null;
  @ApiOmittedWhenUnset(
    { type: 'integer', minimum: 1 },
    { description: 'OCPP connector id (2.0.1: within the EVSE).' },
  )
  connector_id: number | null;
  @ApiOmittedWhenUnset({ type: 'integer', minimum: 0 }, { description: 'OCPP 2.0.1 EVSE id; null on 1.6.' })
  evse_id: number | null;
  @ApiProperty({
    description: 'OCPP transaction id (1.6: assigned by the platform, an integer as a string).',
  })
  ocpp_transaction_id: string;
  @ApiOmittedWhenUnset({ type: 'string' }) id_tag: string | null;
  @ApiProperty({ enum: CHARGING_SESSION_STATUSES }) status: ChargingSessionStatus;
  @ApiOmittedWhenUnset(DATE_TIME) started_at: string | null;
  @ApiOmittedWhenUnset(DATE_TIME) stopped_at: string | null;
  @ApiOmittedWhenUnset({ type: 'number' }, { description: 'Meter reading at the start, Wh.' })
  meter_start_wh: number | null;
  @ApiOmittedWhenUnset({ type: 'number' }, { description: 'Meter reading at the end, Wh.' })
  meter_stop_wh: number | null;
  @ApiOmittedWhenUnset(
    { type: 'number' },
    { description: 'Energy charged, Wh: end (or, while active, latest) reading minus start reading.' },
  )
  energy_wh: number | null;
  @ApiOmittedWhenUnset(
    { type: 'string' },
    {
      description:
        'As the charge point sent it, e.g. Local, EVDisconnected; or `superseded` (a newer transaction started on ' +
        'the connector) or `charge_point_rebooted` (the connector reported Available after a boot).',
    },
  )
  stop_reason: string | null;
  @ApiOmittedWhenUnset(
    { type: 'number' },
    { description: 'Highest Power.Active.Import reported for the session (no phase), W.' },
  )
  peak_power_w: number | null;
  @ApiOmittedWhenUnset(DATE_TIME, { description: "Time of the session's latest sampled value." })
  last_sample_at: string | null;
  @ApiProperty(DATE_TIME) created_at: string;
  @ApiProperty(DATE_TIME) updated_at: string;
}

export class ChargingSessionResponse {
  @ApiProperty({ type: ChargingSessionBody }) charging_session: ChargingSessionBody;
}

export class ChargingSessionListResponse {
  @ApiProperty({ type: [ChargingSessionBody] }) charging_sessions: ChargingSessionBody[];
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
}

export class MeterValueFilterQuery {
  @OptionalField() @IsString() @Length(1, 100) measurand?: string;
  @OptionalField() @IsISO8601({ strict: true }) sampled_from?: string;
  @OptionalField() @IsISO8601({ strict: true }) sampled_to?: string;
}

export const METER_VALUE_FILTER_DOCS = {
  measurand: { type: 'string', example: 'Power.Active.Import', description: 'OCPP measurand.' },
  sampled_from: { type: 'string', format: 'date-time', description: 'Values sampled at or after.' },
  sampled_to: { type: 'string', format: 'date-time', description: 'Values sampled before.' },
};

export class MeterValueListQuery extends CursorPageQuery {
  @FilterQuery(() => MeterValueFilterQuery) filter?: MeterValueFilterQuery;
}

/** One sampled value as the charge point reported it, with OCPP's defaults filled in. */
export class MeterValueBody {
  @ApiProperty(DATE_TIME) sampled_at: string;
  @ApiProperty({ example: 'Energy.Active.Import.Register' }) measurand: string;
  @ApiOmittedWhenUnset({ type: 'string', example: 'L1' }) phase: string | null;
  @ApiProperty({ example: 'Outlet' }) location: string;
  @ApiProperty({ example: 'Wh' }) unit: string;
  @ApiProperty({ example: 'Sample.Periodic' }) context: string;
  @ApiProperty({ type: 'number' }) value: number;
  @ApiOmittedWhenUnset({ type: 'integer', minimum: 0 }) evse_id: number | null;
  @ApiOmittedWhenUnset({ type: 'integer', minimum: 0 }) connector_id: number | null;
}

export class MeterValueListResponse {
  @ApiProperty({ type: [MeterValueBody] }) meter_values: MeterValueBody[];
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
}
