import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  AUDIT_ACTOR_TYPES,
  AUDIT_EVENT_KINDS,
  AUDIT_TARGET_TYPES,
  type AuditTargetType,
  type ApiKeyFilter,
  type AuditActorType,
  type AuditEventFilter,
  type AuditEventKind,
  NAMED_SORT_FIELDS,
  PERMISSION_PATTERN,
  type RoleFilter,
  USER_ENTITY_TYPES,
  USER_SORT_FIELDS,
  type UserEntityType,
  type UserFilter,
} from '@cpc/contracts';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsString,
  Length,
  Matches,
} from 'class-validator';
import {
  AssetPaginationBody,
  CursorPageQuery,
  CursorPaginationBody,
  FilterQuery,
  LIST_PAGINATION_SCHEMA,
  OrderByQuery,
  PagePaginationBody,
  PageQuery,
} from '../common/asset-list-query.js';
import { ApiOmittedWhenUnset, IsUuidString, OptionalField, QueryBoolean } from '../common/dto-decorators.js';

const NAME_PATTERN = /^[\w .-]{1,100}$/;
const MAX_PERMISSIONS = 100;
/** An instant as PostgreSQL and the audit log take it: date, time, optional fraction, Z or an offset. */
const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Text without control characters (a NUL cannot even be stored): e-mails, role names, filters. */
const PlainText = () =>
  Matches(/^\P{Cc}*$/u, { message: ({ property }) => `${property} must not contain control characters` });
const Instant = () =>
  applyDecorators(
    IsISO8601({ strict: true }),
    Matches(INSTANT_PATTERN, {
      message: ({ property }) => `${property} must be an instant like 2026-01-31T12:00:00Z`,
    }),
  );

const EMAIL = {
  minLength: 4,
  maxLength: 128,
  example: 'operator@acme.example',
  description: 'The login name.',
};
const PASSWORD = {
  minLength: 8,
  maxLength: 128,
  writeOnly: true,
  description: 'Never returned. A new password ends the user’s tokens at once.',
};
const ROLE_NAME = {
  minLength: 1,
  maxLength: 100,
  description: 'A role of the tenant, by name; the caller must hold all its permissions (else 403).',
};
const PERMISSIONS = {
  type: 'array' as const,
  items: { type: 'string', pattern: PERMISSION_PATTERN.source },
  minItems: 1,
  maxItems: MAX_PERMISSIONS,
  example: ['asset:locations', 'control:commands:list'],
  description:
    '`area:resource:action` grants (a shorter grant covers everything below it; `*` covers all). The caller must ' +
    'hold every one of them (else 403).',
};

// ---- users ----

export class CreateUserBody {
  @ApiProperty(EMAIL) @IsString() @PlainText() @Length(4, 128) email: string;
  @ApiProperty(PASSWORD) @IsString() @Length(8, 128) password: string;
  @ApiProperty(ROLE_NAME) @IsString() @PlainText() @Length(1, 100) role: string;

  @ApiPropertyOptional({ enum: USER_ENTITY_TYPES, default: 'user' })
  @OptionalField()
  @IsIn(USER_ENTITY_TYPES)
  entity_type?: UserEntityType;
}

export class UpdateUserBody {
  @ApiPropertyOptional(EMAIL) @OptionalField() @IsString() @PlainText() @Length(4, 128) email?: string;
  @ApiPropertyOptional(PASSWORD) @OptionalField() @IsString() @Length(8, 128) password?: string;
  @ApiPropertyOptional(ROLE_NAME) @OptionalField() @IsString() @PlainText() @Length(1, 100) role?: string;

  @ApiPropertyOptional({ description: 'true disables the user and ends its tokens; false enables it again.' })
  @OptionalField()
  @IsBoolean()
  disabled?: boolean;
}

export class UserFilterQuery implements UserFilter {
  @OptionalField() @IsString() @PlainText() @Length(1, 128) email?: string;
  @OptionalField() @IsString() @PlainText() @Length(1, 100) role?: string;
  @OptionalField() @QueryBoolean() @IsBoolean() disabled?: boolean;
}

export const USER_FILTER_DOCS = {
  email: { type: 'string', description: 'Part of the e-mail address, case-insensitive.' },
  role: { type: 'string', description: 'The role’s name.' },
  disabled: { type: 'boolean' },
};

export class UserListQuery extends PageQuery {
  @OrderByQuery(USER_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => UserFilterQuery) filter?: UserFilterQuery;
}

export class UserBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: USER_ENTITY_TYPES }) entity_type: UserEntityType;
  @ApiProperty({ description: 'The role’s name.' }) role: string;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class UserResponse {
  @ApiProperty({ type: UserBody }) user: UserBody;
}

export class UserListResponse {
  @ApiProperty({ type: [UserBody] }) users: UserBody[];
  @ApiProperty({ type: AssetPaginationBody }) pagination: AssetPaginationBody;
}

// ---- roles ----

export class CreateRoleBody {
  @ApiProperty({ minLength: 1, maxLength: 100, pattern: NAME_PATTERN.source })
  @IsString()
  @Matches(NAME_PATTERN, { message: 'name must be 1 to 100 word characters, spaces, dots or dashes' })
  name: string;

  @ApiProperty(PERMISSIONS)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PERMISSIONS)
  @IsString({ each: true })
  @Matches(PERMISSION_PATTERN, { each: true, message: 'each permission must be area:resource:action or *' })
  permissions: string[];
}

export class UpdateRoleBody {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, pattern: NAME_PATTERN.source })
  @OptionalField()
  @IsString()
  @Matches(NAME_PATTERN, { message: 'name must be 1 to 100 word characters, spaces, dots or dashes' })
  name?: string;

  @ApiPropertyOptional({
    ...PERMISSIONS,
    description: `${PERMISSIONS.description} A new set ends the tokens of every holder of the role at once.`,
  })
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PERMISSIONS)
  @IsString({ each: true })
  @Matches(PERMISSION_PATTERN, { each: true, message: 'each permission must be area:resource:action or *' })
  permissions?: string[];
}

export class RoleFilterQuery implements RoleFilter {
  @OptionalField() @IsString() @PlainText() @Length(1, 100) name?: string;
}

export const NAME_FILTER_DOCS = {
  name: { type: 'string', description: 'Part of the name, case-insensitive.' },
};

export class RoleListQuery extends PageQuery {
  @OrderByQuery(NAMED_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => RoleFilterQuery) filter?: RoleFilterQuery;
}

export class RoleBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String] }) permissions: string[];
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class RoleResponse {
  @ApiProperty({ type: RoleBody }) role: RoleBody;
}

export class RoleListResponse {
  @ApiProperty({ type: [RoleBody] }) roles: RoleBody[];
  @ApiProperty({ type: AssetPaginationBody }) pagination: AssetPaginationBody;
}

// ---- API keys ----

export class CreateApiKeyBody {
  @ApiProperty(ROLE_NAME) @IsString() @PlainText() @Length(1, 100) role: string;

  @ApiPropertyOptional({ pattern: NAME_PATTERN.source, description: 'Default: the public key.' })
  @OptionalField()
  @IsString()
  @Matches(NAME_PATTERN, { message: 'name must be 1 to 100 word characters, spaces, dots or dashes' })
  name?: string;
}

export class UpdateApiKeyBody {
  @ApiPropertyOptional({
    ...ROLE_NAME,
    description: `${ROLE_NAME.description} Another role ends the key’s tokens at once.`,
  })
  @OptionalField()
  @IsString()
  @PlainText()
  @Length(1, 100)
  role?: string;

  @ApiPropertyOptional({ pattern: NAME_PATTERN.source })
  @OptionalField()
  @IsString()
  @Matches(NAME_PATTERN, { message: 'name must be 1 to 100 word characters, spaces, dots or dashes' })
  name?: string;
}

export class ApiKeyFilterQuery implements ApiKeyFilter {
  @OptionalField() @IsString() @PlainText() @Length(1, 100) name?: string;
  @OptionalField() @IsString() @PlainText() @Length(1, 100) role?: string;
  @OptionalField() @QueryBoolean() @IsBoolean() revoked?: boolean;
}

export const API_KEY_FILTER_DOCS = {
  ...NAME_FILTER_DOCS,
  role: { type: 'string', description: 'The role’s name.' },
  revoked: { type: 'boolean' },
};

export class ApiKeyListQuery extends PageQuery {
  @OrderByQuery(NAMED_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => ApiKeyFilterQuery) filter?: ApiKeyFilterQuery;
}

export class ApiKeyBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The `username` of a token request.' }) public_key: string;
  @ApiProperty({ description: 'The role’s name.' }) role: string;
  @ApiProperty({ description: 'A revoked key can never be used again.' }) revoked: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class CreatedApiKeyBody extends ApiKeyBody {
  @ApiProperty({
    description:
      'The `password` of a token request. Shown in this answer only: auth-service keeps its hash, nothing else.',
  })
  private_key: string;
}

export class ApiKeyResponse {
  @ApiProperty({ type: ApiKeyBody }) api_key: ApiKeyBody;
}

export class CreatedApiKeyResponse {
  @ApiProperty({ type: CreatedApiKeyBody }) api_key: CreatedApiKeyBody;
}

export class ApiKeyListResponse {
  @ApiProperty({ type: [ApiKeyBody] }) api_keys: ApiKeyBody[];
  @ApiProperty({ type: AssetPaginationBody }) pagination: AssetPaginationBody;
}

// ---- audit events ----

export class AuditEventFilterQuery implements AuditEventFilter {
  @OptionalField() @IsUuidString() actor_uuid?: string;
  @OptionalField() @IsIn(AUDIT_ACTOR_TYPES) actor_type?: AuditActorType;
  @OptionalField() @IsIn(AUDIT_EVENT_KINDS) kind?: AuditEventKind;
  @OptionalField() @IsUuidString() target_uuid?: string;
  @OptionalField() @Instant() from?: string;
  @OptionalField() @Instant() to?: string;
}

export const AUDIT_EVENT_FILTER_DOCS = {
  actor_uuid: { type: 'string', format: 'uuid', description: 'The acting user or API key.' },
  actor_type: { type: 'string', enum: AUDIT_ACTOR_TYPES },
  kind: { type: 'string', enum: AUDIT_EVENT_KINDS },
  target_uuid: { type: 'string', format: 'uuid', description: 'The changed user, role, API key or tenant.' },
  from: { type: 'string', format: 'date-time', description: 'Events at or after this instant.' },
  to: { type: 'string', format: 'date-time', description: 'Events before this instant.' },
};

/** Newest first; no other order. */
export class AuditEventListQuery extends CursorPageQuery {
  @FilterQuery(() => AuditEventFilterQuery) filter?: AuditEventFilterQuery;
}

export class AuditActorBody {
  @ApiProperty({ enum: AUDIT_ACTOR_TYPES }) type: AuditActorType;
  @ApiOmittedWhenUnset({ type: 'string', format: 'uuid' }, { description: 'null for the CLI.' })
  uuid: string | null;
  @ApiProperty({ description: 'The user’s e-mail, the API key’s public key, or the CLI operator’s login.' })
  name: string;
}

export class AuditTargetBody {
  @ApiProperty({ enum: AUDIT_TARGET_TYPES }) type: AuditTargetType;
  @ApiProperty({ format: 'uuid' }) uuid: string;
}

export class AuditEventBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ format: 'date-time' }) occurred_at: string;
  @ApiProperty({ enum: AUDIT_EVENT_KINDS }) kind: AuditEventKind;
  @ApiProperty({ type: AuditActorBody }) actor: AuditActorBody;
  @ApiOmittedWhenUnset(
    { type: 'string' },
    { description: 'The client address as api-gateway determined it (TRUSTED_PROXIES); null for the CLI.' },
  )
  source_address: string | null;
  @ApiProperty({ type: AuditTargetBody }) target: AuditTargetBody;
  @ApiProperty({ type: [String], description: 'The fields the change touched; a password by name only.' })
  changed_fields: string[];
  @ApiOmittedWhenUnset({ type: 'object' }, { description: 'The target before; null for a creation.' })
  before: object | null;
  @ApiOmittedWhenUnset({ type: 'object' }, { description: 'The target after; null for a deletion.' })
  after: object | null;
}

export class AuditEventListResponse {
  @ApiProperty({ type: [AuditEventBody] }) audit_events: AuditEventBody[];
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
}
