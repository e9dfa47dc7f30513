import { ApiProperty } from '@nestjs/swagger';
import { RESERVATION_STATUSES, type ReservationFilter, type ReservationStatus } from '@cpc/contracts';
import { IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';
import {
  CursorPageQuery,
  CursorPaginationBody,
  FilterQuery,
  LIST_PAGINATION_SCHEMA,
  PagePaginationBody,
} from '../common/asset-list-query.js';
import { ApiOmittedWhenUnset, IsUuidString, OptionalField, QueryInt } from '../common/dto-decorators.js';

const INT32_MAX = 2_147_483_647;

export class ReservationFilterQuery implements ReservationFilter {
  @OptionalField() @IsUuidString() controller_uuid?: string;
  @OptionalField() @IsUuidString() plug_uuid?: string;
  @OptionalField() @IsIn(RESERVATION_STATUSES) status?: ReservationStatus;
  @OptionalField() @IsString() @Length(1, 36) id_tag?: string;
  @OptionalField() @QueryInt() @IsInt() @Min(0) @Max(INT32_MAX) reservation_id?: number;
}

export const RESERVATION_FILTER_DOCS = {
  controller_uuid: { type: 'string', format: 'uuid' },
  plug_uuid: { type: 'string', format: 'uuid' },
  status: {
    type: 'string',
    enum: RESERVATION_STATUSES,
    description: 'An active reservation past its expiry is expired.',
  },
  id_tag: { type: 'string', description: 'The id tag the reservation is for.' },
  reservation_id: { type: 'integer', minimum: 0, description: 'The OCPP reservation id.' },
};

export class ReservationListQuery extends CursorPageQuery {
  @FilterQuery(() => ReservationFilterQuery) filter?: ReservationFilterQuery;
}

const DATE_TIME = { type: 'string', format: 'date-time', example: '2025-05-04T10:20:30Z' } as const;

/** A reservation a charge point accepted (reserve command), followed through what the charge point reports. */
export class ReservationBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ format: 'uuid' }) controller_uuid: string;
  @ApiOmittedWhenUnset(
    { type: 'string', format: 'uuid' },
    { description: 'The reserved plug; null when the whole charge point is reserved.' },
  )
  plug_uuid: string | null;
  @ApiOmittedWhenUnset(
    { type: 'integer', minimum: 1 },
    {
      description: 'OCPP connector id of the reserved plug (1.6 numbering); null for the whole charge point.',
    },
  )
  connector_id: number | null;
  @ApiOmittedWhenUnset(
    { type: 'integer', minimum: 0 },
    { description: 'OCPP 2.0.1 EVSE id of the reserved plug.' },
  )
  evse_id: number | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The OCPP reservation id sent in ReserveNow.' })
  reservation_id: number;
  @ApiProperty() id_tag: string;
  @ApiProperty(DATE_TIME) expires_at: string;
  @ApiProperty({
    enum: RESERVATION_STATUSES,
    description:
      'active until used (a transaction started with it), cancelled (an accepted cancel_reservation), expired ' +
      '(the expiry passed, or the station said so), removed (by the station) or replaced (an accepted reserve ' +
      'with the same reservation id on the same charge point).',
  })
  status: ReservationStatus;
  @ApiOmittedWhenUnset(DATE_TIME, { description: 'When it stopped being active; null while active.' })
  ended_at: string | null;
  @ApiOmittedWhenUnset(
    { type: 'string', format: 'uuid' },
    { description: 'The charging session that used it, when known.' },
  )
  charging_session_uuid: string | null;
  @ApiProperty({ format: 'uuid', description: 'The reserve command that made it.' })
  reserve_command_uuid: string;
  @ApiOmittedWhenUnset(
    { type: 'string', format: 'uuid' },
    { description: 'The cancel_reservation command that cancelled it.' },
  )
  cancel_command_uuid: string | null;
  @ApiProperty({ ...DATE_TIME, description: "When the charge point's acceptance was recorded." })
  created_at: string;
  @ApiProperty(DATE_TIME) updated_at: string;
}

export class ReservationResponse {
  @ApiProperty({ type: ReservationBody }) reservation: ReservationBody;
}

export class ReservationListResponse {
  @ApiProperty({ type: [ReservationBody] }) reservations: ReservationBody[];
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
}
