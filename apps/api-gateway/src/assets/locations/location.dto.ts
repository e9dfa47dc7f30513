import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ASSET_SORT_FIELDS,
  LOCATION_STATUSES,
  type LocationFilter,
  type LocationStatus,
  type LocationWritableFields,
} from '@cpc/contracts';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO31661Alpha3,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import {
  AssetPaginationBody,
  CursorListResponseBody,
  CursorPageQuery,
  FilterQuery,
  OrderByQuery,
  PageQuery,
} from '../../common/asset-list-query.js';
import {
  ApiOmittedWhenUnset,
  DecimalString,
  IsUuidString,
  NullableField,
  OptionalField,
  QueryBoolean,
} from '../../common/dto-decorators.js';

const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const upperCase = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value));
/** Spaces, hyphens, dots and slashes people write in phone numbers are dropped: "+49 30 1234-567" → "+49301234567". */
const phoneDigits = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.replace(/[\s\-./]/g, '') : value,
  );

/** A real calendar date (2025-02-30 is refused). */
function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !DATE_PATTERN.test(value)) return false;
  return new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

export class FacilityTypeRefBody {
  @ApiProperty({ format: 'uuid' })
  @IsUuidString()
  uuid: string;

  @ApiPropertyOptional({ description: 'Ignored on input (the catalogue holds the name).' })
  @OptionalField()
  @IsString()
  @MaxLength(100)
  name?: string;
}

const textProperty = (maxLength: number, description?: string) => (target: object, key: string) => {
  ApiPropertyOptional({ oneOf: [{ type: 'string', maxLength }, { type: 'null' }], description })(target, key);
  NullableField()(target, key);
  IsString()(target, key);
  MaxLength(maxLength)(target, key);
};

/** Writable location fields; `name` is the only one required at creation. Nullable fields accept null to clear. */
export class CreateLocationBody {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Harbour car park' })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiPropertyOptional({ enum: LOCATION_STATUSES, default: 'active' })
  @OptionalField()
  @IsIn(LOCATION_STATUSES)
  status?: LocationStatus;

  @textProperty(200) street?: string | null;
  @textProperty(20) house_number?: string | null;
  @textProperty(20) postal_code?: string | null;
  @textProperty(100) city?: string | null;
  @textProperty(100) district?: string | null;
  @textProperty(100) rural_district?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', pattern: '^[A-Z]{3}$', example: 'DEU' }, { type: 'null' }],
    description: 'ISO 3166-1 alpha-3 country code (lower case is accepted and upper-cased).',
  })
  @NullableField()
  @upperCase()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'country_code must be three letters (ISO 3166-1 alpha-3)' })
  @IsISO31661Alpha3({ message: 'country_code must be an ISO 3166-1 alpha-3 country code' })
  country_code?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', pattern: '^-?\\d{1,2}(\\.\\d{1,8})?$', example: '53.5461' }, { type: 'null' }],
    description: 'Decimal degrees, -90 to 90, at most 8 decimals; a string (a JSON number is accepted too).',
  })
  @NullableField()
  @DecimalString({ min: -90, max: 90, maxDecimals: 8 })
  latitude?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', pattern: '^-?\\d{1,3}(\\.\\d{1,8})?$', example: '9.9661' }, { type: 'null' }],
    description:
      'Decimal degrees, -180 to 180, at most 8 decimals; a string (a JSON number is accepted too).',
  })
  @NullableField()
  @DecimalString({ min: -180, max: 180, maxDecimals: 8 })
  longitude?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', example: '12.50' }, { type: 'null' }],
    description: 'Metres above sea level, -1000 to 10000, at most 2 decimals; answered with exactly two.',
  })
  @NullableField()
  @DecimalString({ min: -1000, max: 10000, maxDecimals: 2 })
  height?: string | null;

  @textProperty(200) operator?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', pattern: E164_PATTERN.source, example: '+4940123456' }, { type: 'null' }],
    description:
      'International phone number (E.164: + and 7 to 15 digits); spaces, hyphens, dots and slashes are dropped.',
  })
  @NullableField()
  @phoneDigits()
  @IsString()
  @Matches(E164_PATTERN, {
    message: 'support_hotline must be an international phone number such as +4940123456',
  })
  support_hotline?: string | null;

  @ApiPropertyOptional({ default: false })
  @OptionalField()
  @IsBoolean()
  publish?: boolean;

  @textProperty(100) identifier?: string | null;
  @textProperty(5000) directions?: string | null;
  @textProperty(5000) description?: string | null;
  @textProperty(5000) comment?: string | null;
  @textProperty(5000) comment_usage_agreement?: string | null;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', format: 'uri', maxLength: 2048, example: 'https://charging.example.com' },
      { type: 'null' },
    ],
    description: 'http or https URL.',
  })
  @NullableField()
  @IsString()
  @MaxLength(2048)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'website must be an http or https URL' },
  )
  website?: string | null;

  @textProperty(200) partner?: string | null;
  @textProperty(200) accounter?: string | null;
  @textProperty(200) level_measurement?: string | null;
  @textProperty(200) network_carrier?: string | null;
  @textProperty(200) available_power?: string | null;
  @textProperty(5000) additional_conditions?: string | null;
  @textProperty(200) max_standing_time?: string | null;

  @ApiPropertyOptional({ oneOf: [{ type: 'integer', minimum: 0, maximum: 2147483647 }, { type: 'null' }] })
  @NullableField()
  @IsInt()
  @Min(0)
  @Max(2147483647)
  contract_id?: number | null;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date',
    description: 'YYYY-MM-DD: when the site was last modified; defaults to the day of creation.',
  })
  @OptionalField()
  @IsString()
  @ValidateBy({
    name: 'isCalendarDate',
    validator: {
      validate: isCalendarDate,
      defaultMessage: () => 'modification_date must be a date in the form YYYY-MM-DD',
    },
  })
  modification_date?: string;

  @ApiPropertyOptional({
    type: [FacilityTypeRefBody],
    description:
      "Facility types from the tenant's catalogue (GET /api/v1/assets/facility-types); replaces the list.",
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => FacilityTypeRefBody)
  facility_types?: FacilityTypeRefBody[];
}

/** Every field optional; fields sent as null are cleared where the field is nullable. */
export class UpdateLocationBody extends PartialType(CreateLocationBody, { skipNullProperties: false }) {}

/** Body DTO → the service's payload (facility types travel as uuids; fields not sent stay absent). */
export function toLocationFields(body: CreateLocationBody | UpdateLocationBody): LocationWritableFields {
  const { facility_types, ...fields } = body;
  return {
    ...(Object.fromEntries(
      Object.entries(fields).filter(([, value]) => value !== undefined),
    ) as LocationWritableFields),
    ...(facility_types !== undefined ? { facility_type_uuids: facility_types.map((type) => type.uuid) } : {}),
  };
}

export class LocationFilterQuery implements LocationFilter {
  @OptionalField() @IsString() @Length(1, 200) name?: string;
  @OptionalField() @IsIn(LOCATION_STATUSES) status?: LocationStatus;
  @OptionalField() @IsString() @Length(1, 100) city?: string;
  @OptionalField() @IsString() @Length(1, 20) postal_code?: string;
  @OptionalField() @upperCase() @IsString() @Matches(/^[A-Z]{3}$/) country_code?: string;
  @OptionalField() @IsString() @Length(1, 100) identifier?: string;
  @OptionalField() @QueryBoolean() @IsBoolean() publish?: boolean;
  @OptionalField() @IsUuidString() facility_type_uuid?: string;
}

export const LOCATION_FILTER_DOCS = {
  name: { type: 'string', description: 'Part of the name, case-insensitive.' },
  status: { type: 'string', enum: LOCATION_STATUSES },
  city: { type: 'string' },
  postal_code: { type: 'string' },
  country_code: { type: 'string', pattern: '^[A-Za-z]{3}$' },
  identifier: { type: 'string' },
  publish: { type: 'boolean' },
  facility_type_uuid: {
    type: 'string',
    format: 'uuid',
    description: 'Locations that list this facility type.',
  },
};

export class LocationListQuery extends CursorPageQuery {
  @OrderByQuery(ASSET_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => LocationFilterQuery) filter?: LocationFilterQuery;
}

/** The spec's Location, every field present (null where nothing is recorded). */
export class LocationBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ format: 'date', example: '2025-05-04' }) created_at: string;
  @ApiProperty({ format: 'date', example: '2025-05-04' }) updated_at: string;
  @ApiProperty({ format: 'date', example: '2025-05-04' }) modification_date: string;

  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      properties: { controller_uuid: { type: 'string', format: 'uuid' } },
      required: ['controller_uuid'],
    },
  })
  controllers: { controller_uuid: string }[];

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Charge points at the location: distinct EVSEs (controller, evse_id) over the plugs of its controllers.',
  })
  charge_point_count: number;

  @ApiProperty() name: string;
  @ApiProperty({ enum: LOCATION_STATUSES, example: 'in_questioning' }) status: LocationStatus;
  @ApiOmittedWhenUnset({ type: 'string' }) street: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) house_number: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) postal_code: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) city: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) district: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) rural_district: string | null;
  @ApiOmittedWhenUnset({ type: 'string', pattern: '^[A-Z]{3}$', example: 'DEU' }) country_code: string | null;
  @ApiOmittedWhenUnset({ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', example: '53.5461' }) latitude:
    string | null;
  @ApiOmittedWhenUnset({ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', example: '9.9661' }) longitude:
    string | null;
  @ApiOmittedWhenUnset({ type: 'string', pattern: '^-?\\d+\\.\\d{2}$', example: '12.50' }) height:
    string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) operator: string | null;
  @ApiOmittedWhenUnset({ type: 'string', pattern: E164_PATTERN.source, example: '+4940123456' })
  support_hotline: string | null;
  @ApiProperty() publish: boolean;
  @ApiOmittedWhenUnset({ type: 'string' }) identifier: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) directions: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) description: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) comment: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) comment_usage_agreement: string | null;
  @ApiOmittedWhenUnset({ type: 'string', format: 'uri' }) website: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) partner: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) accounter: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) level_measurement: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) network_carrier: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) available_power: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) additional_conditions: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }) max_standing_time: string | null;
  @ApiOmittedWhenUnset({ type: 'integer' }) contract_id: number | null;
  @ApiProperty({ type: [FacilityTypeRefBody] }) facility_types: FacilityTypeRefBody[];
}

export class LocationResponse {
  @ApiProperty({ type: LocationBody }) location: LocationBody;
}

export class LocationListResponse extends CursorListResponseBody {
  @ApiProperty({ type: [LocationBody] }) locations: LocationBody[];
}

export class CreateFacilityTypeBody {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Parking' })
  @IsString()
  @Length(1, 100)
  name: string;
}

export class FacilityTypeBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class FacilityTypeResponse {
  @ApiProperty({ type: FacilityTypeBody }) facility_type: FacilityTypeBody;
}

export class FacilityTypeListResponse {
  @ApiProperty({ type: [FacilityTypeBody] }) facility_types: FacilityTypeBody[];
  @ApiProperty({ type: AssetPaginationBody }) pagination: AssetPaginationBody;
}

export class FacilityTypeFilterQuery {
  @OptionalField() @IsString() @Length(1, 100) name?: string;
}

export class FacilityTypeListQuery extends PageQuery {
  @OrderByQuery(ASSET_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => FacilityTypeFilterQuery) filter?: FacilityTypeFilterQuery;
}
