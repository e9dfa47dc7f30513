import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  PLUG_SORT_FIELDS,
  PLUG_STANDARDS,
  type PlugFilter,
  type PlugStandard,
  POWER_TYPES,
  type PowerType,
} from '@cpc/contracts';
import { IsIn, IsInt, IsNumber, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import {
  CursorListResponseBody,
  CursorPageQuery,
  FilterQuery,
  OrderByQuery,
} from '../../common/asset-list-query.js';
import {
  ApiOmittedWhenUnset,
  IsUuidString,
  NullableField,
  OptionalField,
  QueryInt,
} from '../../common/dto-decorators.js';

export class CreatePlugBody {
  @ApiProperty({ format: 'uuid' })
  @IsUuidString()
  controller_uuid: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    description: 'The OCPP connector id, unique per controller (OCPP 1.6 numbering across the charge point).',
  })
  @IsInt()
  @Min(1)
  @Max(1000)
  connector_id: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    description: 'The EVSE the connector belongs to; defaults to connector_id (one connector per EVSE).',
  })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(1000)
  evse_id?: number;

  @ApiPropertyOptional({ oneOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }], example: 'Left CCS' })
  @NullableField()
  @IsString()
  @MaxLength(200)
  name?: string | null;

  @ApiProperty({ enum: PLUG_STANDARDS, example: 'iec_62196_t2' })
  @IsIn(PLUG_STANDARDS)
  standard: PlugStandard;

  @ApiProperty({ enum: POWER_TYPES, example: 'ac_3_phase' })
  @IsIn(POWER_TYPES)
  power_type: PowerType;

  @ApiProperty({
    type: 'number',
    minimum: 0.01,
    maximum: 5000,
    example: 22,
    description: 'At most 2 decimals.',
  })
  @IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false })
  @Min(0.01)
  @Max(5000)
  max_power_kw: number;
}

export class UpdatePlugBody extends PartialType(OmitType(CreatePlugBody, ['controller_uuid'] as const), {
  skipNullProperties: false,
}) {}

export class PlugFilterQuery implements PlugFilter {
  @OptionalField() @IsUuidString() controller_uuid?: string;
  @OptionalField() @IsUuidString() location_uuid?: string;
  @OptionalField() @QueryInt() @IsInt() @Min(1) connector_id?: number;
  @OptionalField() @QueryInt() @IsInt() @Min(1) evse_id?: number;
  @OptionalField() @IsIn(PLUG_STANDARDS) standard?: PlugStandard;
  @OptionalField() @IsIn(POWER_TYPES) power_type?: PowerType;
  @OptionalField() @IsString() @Length(1, 50) status?: string;
}

export const PLUG_FILTER_DOCS = {
  controller_uuid: { type: 'string', format: 'uuid' },
  location_uuid: { type: 'string', format: 'uuid', description: "The location of the plug's controller." },
  connector_id: { type: 'integer', minimum: 1 },
  evse_id: { type: 'integer', minimum: 1 },
  standard: { type: 'string', enum: PLUG_STANDARDS },
  power_type: { type: 'string', enum: POWER_TYPES },
  status: {
    type: 'string',
    description: 'As the charge point reported it, e.g. Available, Charging; or unknown.',
  },
};

export class PlugListQuery extends CursorPageQuery {
  @OrderByQuery(PLUG_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => PlugFilterQuery) filter?: PlugFilterQuery;
}

export class PlugBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ format: 'uuid' }) controller_uuid: string;
  @ApiProperty({ format: 'uuid', description: "The location of the plug's controller." })
  location_uuid: string;
  @ApiProperty({ type: 'integer' }) connector_id: number;
  @ApiProperty({ type: 'integer' }) evse_id: number;
  @ApiOmittedWhenUnset({ type: 'string' }) name: string | null;
  @ApiProperty({ enum: PLUG_STANDARDS }) standard: PlugStandard;
  @ApiProperty({ enum: POWER_TYPES }) power_type: PowerType;
  @ApiProperty({ type: 'number' }) max_power_kw: number;
  @ApiProperty({
    readOnly: true,
    example: 'Available',
    description:
      'As the charge point last reported it (OCPP status, e.g. Available, Charging, Faulted); unknown before.',
  })
  status: string;
  @ApiOmittedWhenUnset({ type: 'string', format: 'date-time' }, { readOnly: true }) status_updated_at:
    string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class PlugResponse {
  @ApiProperty({ type: PlugBody }) plug: PlugBody;
}

export class PlugListResponse extends CursorListResponseBody {
  @ApiProperty({ type: [PlugBody] }) plugs: PlugBody[];
}
