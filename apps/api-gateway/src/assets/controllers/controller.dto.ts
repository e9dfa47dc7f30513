import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ASSET_SORT_FIELDS,
  CONNECTION_STATUSES,
  type ConnectionStatus,
  type ControllerFilter,
  OCPP_IDENTITY_PATTERN,
  SECURITY_PROFILES,
  type SecurityProfile,
} from '@cpc/contracts';
import { IsIn, IsInt, IsString, Length, Matches } from 'class-validator';
import {
  CursorListResponseBody,
  CursorPageQuery,
  FilterQuery,
  OrderByQuery,
} from '../../common/asset-list-query.js';
import { ApiOmittedWhenUnset, IsUuidString, OptionalField, QueryInt } from '../../common/dto-decorators.js';

/** The characters of an OCPP passwordString. */
const OCPP_PASSWORD_CHARACTERS = /^[A-Za-z0-9*\-_=:+|@.]*$/;

export class CreateControllerBody {
  @ApiProperty({ format: 'uuid', description: 'The location the charge point stands at.' })
  @IsUuidString()
  location_uuid: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Bay 3 wallbox' })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({
    pattern: OCPP_IDENTITY_PATTERN.source,
    maxLength: 48,
    example: 'CP-HH-0003',
    description:
      'The charge point identity, the last segment of its connection URL and its HTTP Basic user name: 1 to 48 of ' +
      'A-Z a-z 0-9 * - _ = + | @ . (OCPP identifierString without ":"); unique per tenant, case-insensitively.',
  })
  @IsString()
  @Matches(OCPP_IDENTITY_PATTERN, {
    message: 'ocpp_identity must be 1 to 48 of the characters A-Z a-z 0-9 * - _ = + | @ .',
  })
  ocpp_identity: string;

  @ApiPropertyOptional({
    minLength: 16,
    maxLength: 40,
    writeOnly: true,
    description:
      'HTTP Basic password of the charge point (security profiles 1 and 2, where it is required): 16 to 40 of ' +
      'A-Z a-z 0-9 * - _ = : + | @ . (OCPP passwordString). Stored hashed, never returned.',
  })
  @OptionalField()
  @IsString()
  @Length(16, 40)
  @Matches(OCPP_PASSWORD_CHARACTERS, {
    message: 'ocpp_password may only hold the characters A-Z a-z 0-9 * - _ = : + | @ .',
  })
  ocpp_password?: string;

  @ApiPropertyOptional({
    enum: SECURITY_PROFILES,
    default: 1,
    description: 'OCPP security profile: 0 none, 1 Basic auth, 2 TLS + Basic auth, 3 TLS client certificate.',
  })
  @OptionalField()
  @IsInt()
  @IsIn(SECURITY_PROFILES)
  security_profile?: SecurityProfile;
}

export class UpdateControllerBody extends PartialType(CreateControllerBody, { skipNullProperties: false }) {}

export class ControllerFilterQuery implements ControllerFilter {
  @OptionalField() @IsUuidString() location_uuid?: string;
  @OptionalField() @IsString() @Length(1, 200) name?: string;
  @OptionalField() @IsString() @Length(1, 48) ocpp_identity?: string;
  @OptionalField() @IsIn(CONNECTION_STATUSES) connection_status?: ConnectionStatus;
  @OptionalField() @QueryInt() @IsInt() @IsIn(SECURITY_PROFILES) security_profile?: SecurityProfile;
}

export const CONTROLLER_FILTER_DOCS = {
  location_uuid: { type: 'string', format: 'uuid' },
  name: { type: 'string', description: 'Part of the name, case-insensitive.' },
  ocpp_identity: { type: 'string', description: 'The identity, case-insensitive.' },
  connection_status: { type: 'string', enum: CONNECTION_STATUSES },
  security_profile: { type: 'integer', enum: SECURITY_PROFILES },
};

export class ControllerListQuery extends CursorPageQuery {
  @OrderByQuery(ASSET_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => ControllerFilterQuery) filter?: ControllerFilterQuery;
}

const dateTime = { type: 'string', format: 'date-time' };

/** A controller (OCPP charge point); the live fields are as the charge point last reported them. */
export class ControllerBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ format: 'uuid' }) location_uuid: string;
  @ApiProperty() name: string;
  @ApiProperty() ocpp_identity: string;
  @ApiProperty({ enum: SECURITY_PROFILES }) security_profile: SecurityProfile;
  @ApiProperty({ description: 'Whether an ocpp_password is set (the password itself is write-only).' })
  has_ocpp_password: boolean;
  @ApiProperty({ enum: CONNECTION_STATUSES, readOnly: true }) connection_status: ConnectionStatus;
  @ApiOmittedWhenUnset({ type: 'string', example: 'ocpp1.6' }, { readOnly: true }) ocpp_protocol:
    string | null;
  @ApiOmittedWhenUnset(dateTime, {
    readOnly: true,
    description: 'Last message or connection from the charge point.',
  })
  last_seen_at: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }, { readOnly: true }) vendor: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }, { readOnly: true }) model: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }, { readOnly: true }) serial_number: string | null;
  @ApiOmittedWhenUnset({ type: 'string' }, { readOnly: true }) firmware_version: string | null;
  @ApiOmittedWhenUnset(
    { type: 'string' },
    {
      readOnly: true,
      description: "The latest firmware status the charge point reported, e.g. 'Installed'.",
    },
  )
  firmware_status: string | null;
  @ApiOmittedWhenUnset({ type: 'string', format: 'date-time' }, { readOnly: true })
  firmware_status_at: string | null;
  @ApiOmittedWhenUnset(
    { type: 'string' },
    { readOnly: true, description: "The latest diagnostics / log upload status, e.g. 'Uploaded'." },
  )
  diagnostics_status: string | null;
  @ApiOmittedWhenUnset({ type: 'string', format: 'date-time' }, { readOnly: true })
  diagnostics_status_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class ControllerResponse {
  @ApiProperty({ type: ControllerBody }) controller: ControllerBody;
}

export class ControllerListResponse extends CursorListResponseBody {
  @ApiProperty({ type: [ControllerBody] }) controllers: ControllerBody[];
}
