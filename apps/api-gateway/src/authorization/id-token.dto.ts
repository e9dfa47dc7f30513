import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  CONTRACT_REFERENCE_MAX_LENGTH,
  ID_TOKEN_MAX_LENGTH,
  ID_TOKEN_SORT_FIELDS,
  ID_TOKEN_STATUSES,
  ID_TOKEN_TYPES,
  type IdTokenFilter,
  type IdTokenStatus,
  type IdTokenType,
  MAX_ALLOWED_LOCATIONS,
  MAX_ID_TOKENS_PER_IMPORT,
} from '@cpc/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  CursorListResponseBody,
  CursorPageQuery,
  FilterQuery,
  OrderByQuery,
} from '../common/asset-list-query.js';
import { ApiOmittedWhenUnset, IsUuidString, NullableField, OptionalField } from '../common/dto-decorators.js';

/** The spec's date-time: seconds precision, `Z` or an offset. */
const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;
const DATE_TIME = { type: 'string', format: 'date-time', example: '2026-12-31T23:59:59Z' } as const;

/** OCPP's identifier characters are printable ASCII; a value with others can never arrive from a charge point. */
const ID_TOKEN_PATTERN = /^[\x21-\x7e]+$/;

export class IdTokenKeyBody {
  @ApiProperty({ minLength: 1, maxLength: ID_TOKEN_MAX_LENGTH, pattern: ID_TOKEN_PATTERN.source })
  @IsString()
  @Length(1, ID_TOKEN_MAX_LENGTH)
  @Matches(ID_TOKEN_PATTERN, { message: 'id_token must be printable ASCII without spaces' })
  id_token: string;

  @ApiProperty({ enum: ID_TOKEN_TYPES, description: 'OCPP 2.0.1 IdTokenEnumType in snake case.' })
  @IsIn(ID_TOKEN_TYPES)
  type: IdTokenType;
}

export class CreateIdTokenBody extends IdTokenKeyBody {
  @ApiPropertyOptional({ enum: ID_TOKEN_STATUSES, default: 'accepted' })
  @OptionalField()
  @IsIn(ID_TOKEN_STATUSES)
  status?: IdTokenStatus;

  @ApiPropertyOptional({
    oneOf: [DATE_TIME, { type: 'null' }],
    description: 'After it the token is answered Expired; null: never.',
  })
  @NullableField()
  @IsString()
  @Matches(DATE_TIME_PATTERN, { message: 'expires_at must be a date-time such as 2026-12-31T23:59:59Z' })
  @IsISO8601({ strict: true })
  expires_at?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ $ref: '#/components/schemas/IdTokenKeyBody' }, { type: 'null' }],
    description: "Another token of the tenant (its value and type): OCPP's parentIdTag / groupIdToken.",
  })
  @NullableField()
  @ValidateNested()
  @Type(() => IdTokenKeyBody)
  group_id_token?: IdTokenKeyBody | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', maxLength: CONTRACT_REFERENCE_MAX_LENGTH }, { type: 'null' }],
  })
  @NullableField()
  @IsString()
  @MaxLength(CONTRACT_REFERENCE_MAX_LENGTH)
  contract_reference?: string | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    maxItems: MAX_ALLOWED_LOCATIONS,
    description: 'Locations where the token is accepted; empty (the default): everywhere.',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWED_LOCATIONS)
  @IsUuidString({ each: true, message: 'allowed_location_uuids must hold location UUIDs' })
  allowed_location_uuids?: string[];
}

export class UpdateIdTokenBody extends PartialType(
  OmitType(CreateIdTokenBody, ['id_token', 'type'] as const),
  {
    skipNullProperties: false,
  },
) {}

export class IdTokenFilterQuery implements IdTokenFilter {
  @OptionalField() @IsString() @Length(1, ID_TOKEN_MAX_LENGTH) id_token?: string;
  @OptionalField() @IsIn(ID_TOKEN_TYPES) type?: IdTokenType;
  @OptionalField() @IsIn(ID_TOKEN_STATUSES) status?: IdTokenStatus;
  @OptionalField() @IsString() @Length(1, CONTRACT_REFERENCE_MAX_LENGTH) contract_reference?: string;
  @OptionalField() @IsUuidString() group_id_token?: string;
  @OptionalField() @IsUuidString() location_uuid?: string;
}

export const ID_TOKEN_FILTER_DOCS = {
  id_token: { type: 'string', description: 'The value, case-insensitive.' },
  type: { type: 'string', enum: ID_TOKEN_TYPES },
  status: { type: 'string', enum: ID_TOKEN_STATUSES },
  contract_reference: { type: 'string' },
  group_id_token: { type: 'string', format: 'uuid', description: 'Tokens whose group is this token.' },
  location_uuid: {
    type: 'string',
    format: 'uuid',
    description: 'Tokens accepted at this location (restricted to it, or unrestricted).',
  },
};

export class IdTokenListQuery extends CursorPageQuery {
  @OrderByQuery(ID_TOKEN_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => IdTokenFilterQuery) filter?: IdTokenFilterQuery;
}

class IdTokenRefBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty() id_token: string;
  @ApiProperty({ enum: ID_TOKEN_TYPES }) type: IdTokenType;
}

export class IdTokenBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty() id_token: string;
  @ApiProperty({ enum: ID_TOKEN_TYPES }) type: IdTokenType;
  @ApiProperty({ enum: ID_TOKEN_STATUSES }) status: IdTokenStatus;
  @ApiOmittedWhenUnset(DATE_TIME) expires_at: string | null;
  @ApiOmittedWhenUnset({ $ref: '#/components/schemas/IdTokenRefBody' }) group_id_token: IdTokenRefBody | null;
  @ApiOmittedWhenUnset({ type: 'string' }) contract_reference: string | null;
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' } }) allowed_location_uuids: string[];
  @ApiProperty(DATE_TIME) created_at: string;
  @ApiProperty(DATE_TIME) updated_at: string;
}

export class IdTokenResponse {
  @ApiProperty({ type: IdTokenBody }) id_token: IdTokenBody;
}

export class IdTokenListResponse extends CursorListResponseBody {
  @ApiProperty({ type: [IdTokenBody] }) id_tokens: IdTokenBody[];
}

export class IdTokenImportResponse {
  @ApiProperty({ type: 'integer', description: 'Tokens the import added.' }) created: number;
  @ApiProperty({ type: 'integer', description: 'Known tokens (same value and type) it replaced.' })
  updated: number;
}

/** `{id_tokens: [...]}`, or the same tokens as NDJSON (one per line; the parser builds this object). */
export class IdTokenImportBody {
  @ApiProperty({ type: [CreateIdTokenBody], maxItems: MAX_ID_TOKENS_PER_IMPORT })
  @IsArray()
  @ArrayMaxSize(MAX_ID_TOKENS_PER_IMPORT)
  @ValidateNested({ each: true })
  @Type(() => CreateIdTokenBody)
  id_tokens: CreateIdTokenBody[];
}

/** Keeps the referenced schemas in the document. */
export const ID_TOKEN_EXTRA_MODELS = [IdTokenKeyBody, IdTokenRefBody];
