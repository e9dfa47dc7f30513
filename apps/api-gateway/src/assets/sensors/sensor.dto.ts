import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { ASSET_SORT_FIELDS, SENSOR_KINDS, type SensorFilter, type SensorKind } from '@cpc/contracts';
import { IsIn, IsString, Length, MaxLength } from 'class-validator';
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
} from '../../common/dto-decorators.js';

/** A sensor belongs to exactly one of a location and a controller. */
export class CreateSensorBody {
  @ApiPropertyOptional({ format: 'uuid', description: 'Give this or controller_uuid, not both.' })
  @OptionalField()
  @IsUuidString()
  location_uuid?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Give this or location_uuid, not both.' })
  @OptionalField()
  @IsUuidString()
  controller_uuid?: string;

  @ApiProperty({ enum: SENSOR_KINDS })
  @IsIn(SENSOR_KINDS)
  kind: SensorKind;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiPropertyOptional({ oneOf: [{ type: 'string', maxLength: 100 }, { type: 'null' }] })
  @NullableField()
  @IsString()
  @MaxLength(100)
  serial_number?: string | null;
}

export class UpdateSensorBody extends PartialType(
  OmitType(CreateSensorBody, ['location_uuid', 'controller_uuid'] as const),
  { skipNullProperties: false },
) {}

export class SensorFilterQuery implements SensorFilter {
  @OptionalField() @IsUuidString() location_uuid?: string;
  @OptionalField() @IsUuidString() controller_uuid?: string;
  @OptionalField() @IsIn(SENSOR_KINDS) kind?: SensorKind;
  @OptionalField() @IsString() @Length(1, 200) name?: string;
  @OptionalField() @IsString() @Length(1, 100) serial_number?: string;
}

export const SENSOR_FILTER_DOCS = {
  location_uuid: { type: 'string', format: 'uuid' },
  controller_uuid: { type: 'string', format: 'uuid' },
  kind: { type: 'string', enum: SENSOR_KINDS },
  name: { type: 'string', description: 'Part of the name, case-insensitive.' },
  serial_number: { type: 'string' },
};

export class SensorListQuery extends CursorPageQuery {
  @OrderByQuery(ASSET_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => SensorFilterQuery) filter?: SensorFilterQuery;
}

export class SensorBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiOmittedWhenUnset({ type: 'string', format: 'uuid' }) location_uuid: string | null;
  @ApiOmittedWhenUnset({ type: 'string', format: 'uuid' }) controller_uuid: string | null;
  @ApiProperty({ enum: SENSOR_KINDS }) kind: SensorKind;
  @ApiProperty() name: string;
  @ApiOmittedWhenUnset({ type: 'string' }) serial_number: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class SensorResponse {
  @ApiProperty({ type: SensorBody }) sensor: SensorBody;
}

export class SensorListResponse extends CursorListResponseBody {
  @ApiProperty({ type: [SensorBody] }) sensors: SensorBody[];
}
