import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENTITY_TYPES, type EntityType, PERMISSION_PATTERN } from '@cpc/contracts';
import { IsIn, IsOptional, IsString, Length, ValidateBy, ValidateIf } from 'class-validator';
import { IsUuidString } from '../common/dto-decorators.js';

export const GRANT_TYPES = ['password', 'client_credentials', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** Longest `scope` accepted: room for every permission a role can hold. */
export const MAX_SCOPE_LENGTH = 4096;

const grantOf = (request: TokenRequestDto): GrantType => request.grant_type ?? 'password';
const isPasswordGrant = (request: TokenRequestDto) => grantOf(request) === 'password';
const isClientCredentialsGrant = (request: TokenRequestDto) => grantOf(request) === 'client_credentials';

/** RFC 6749 §3.3: space-separated permissions, each `area[:resource[:action]]` or `*`. */
const IsScope = () =>
  ValidateBy({
    name: 'isScope', // errorKey invalid_scope (validation-issues.ts)
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        value.length <= MAX_SCOPE_LENGTH &&
        value
          .split(' ')
          .filter(Boolean)
          .every((permission) => PERMISSION_PATTERN.test(permission)),
      defaultMessage: () =>
        `scope must be permissions (area:resource:action or *) separated by spaces, at most ${MAX_SCOPE_LENGTH} characters`,
    },
  });

const UUID_DESCRIPTION =
  "The tenant's own UUID (the `tenant_uuid` claim of any of its tokens; `npm run admin -- tenant:show`), for clients " +
  'that want the token to carry it: it is embedded as claim `data.uuid`. It selects nothing; `tenant` does. ' +
  'Optional; any other UUID is refused with 400 naming `uuid` (once the credentials are right).';

/**
 * POST /api/v1/oauth/token: the spec's table (username, password, tenant, context, uuid) and the RFC 6749 forms beside
 * it: `grant_type` password (the default), client_credentials (an API key as client_id / client_secret, in the body
 * or as HTTP Basic) and refresh_token, each with an optional `scope`. Fields of other grants and unknown fields are
 * ignored, as RFC 6749 §3.2 asks of this endpoint.
 */
export class TokenRequestDto {
  @ApiPropertyOptional({ enum: GRANT_TYPES, default: 'password' })
  @IsOptional()
  @IsIn(GRANT_TYPES)
  grant_type?: GrantType;

  @ApiPropertyOptional({
    minLength: 4,
    maxLength: 128,
    description: 'User e-mail or API key public key (password grant; required there)',
  })
  @ValidateIf(isPasswordGrant)
  @IsString()
  @Length(4, 128)
  username?: string;

  @ApiPropertyOptional({
    minLength: 4,
    maxLength: 128,
    description: 'Password or API key private key (password grant; required there)',
  })
  @ValidateIf(isPasswordGrant)
  @IsString()
  @Length(4, 128)
  password?: string;

  @ApiPropertyOptional({
    minLength: 3,
    maxLength: 128,
    description:
      'Tenant slug; scopes the token. Required with the password grant; optional with client_credentials (the API ' +
      'key names its tenant).',
  })
  @ValidateIf(
    (request: TokenRequestDto) =>
      isPasswordGrant(request) || (isClientCredentialsGrant(request) && request.tenant !== undefined),
  )
  @IsString()
  @Length(3, 128)
  tenant?: string;

  @ApiPropertyOptional({
    enum: ENTITY_TYPES,
    description:
      "Entity type to authenticate against; default: the tenant's (password grant), apikey (client_credentials)",
  })
  @IsOptional()
  @IsIn(ENTITY_TYPES)
  context?: EntityType;

  @ApiPropertyOptional({ minLength: 36, maxLength: 36, format: 'uuid', description: UUID_DESCRIPTION })
  @IsOptional()
  @IsUuidString()
  uuid?: string;

  @ApiPropertyOptional({
    minLength: 4,
    maxLength: 128,
    description:
      'client_credentials: the API key public key (or send it as HTTP Basic user). Other grants: ignored (the ' +
      'platform has public clients only).',
  })
  @ValidateIf(isClientCredentialsGrant)
  @IsString()
  @Length(4, 128)
  client_id?: string;

  @ApiPropertyOptional({
    minLength: 4,
    maxLength: 128,
    description:
      'client_credentials: the API key private key (or as HTTP Basic password). Other grants: ignored.',
  })
  @ValidateIf(isClientCredentialsGrant)
  @IsString()
  @Length(4, 128)
  client_secret?: string;

  @ApiPropertyOptional({
    maxLength: MAX_SCOPE_LENGTH,
    example: 'control:commands:list asset:locations:read',
    description:
      'RFC 6749 scope: space-separated permissions the token is to carry, each covered by the role (never more); ' +
      "absent: all of the role's. With refresh_token: a subset of the original. A permission the role does not " +
      'cover is refused with 400, errorKey invalid_scope on scope.',
  })
  @IsOptional()
  @IsScope()
  scope?: string;

  @ApiPropertyOptional({ maxLength: 512, description: 'Required with grant_type refresh_token' })
  @ValidateIf((request: TokenRequestDto) => grantOf(request) === 'refresh_token')
  @IsString()
  @Length(1, 512)
  refresh_token?: string;
}

export class TokenResponseDto {
  @ApiProperty()
  access_token: string;

  @ApiProperty()
  refresh_token: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type: 'Bearer';

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Lifetime of the access token in seconds' })
  expires_in: number;

  @ApiPropertyOptional({
    description:
      'The permissions granted, space-separated (RFC 6749 §5.1); present when a scope narrowed the token (this ' +
      'request or the login its refresh token descends from).',
  })
  scope?: string;
}
