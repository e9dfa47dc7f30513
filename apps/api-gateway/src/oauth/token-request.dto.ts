import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENTITY_TYPES, type EntityType } from '@cpc/contracts';
import { IsIn, IsOptional, IsString, IsUUID, Length, ValidateIf } from 'class-validator';

export const GRANT_TYPES = ['password', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

const isPasswordGrant = (request: TokenRequestDto) => (request.grant_type ?? 'password') === 'password';

/** POST /api/v1/oauth/token, as the spec's table says, plus the OAuth 2.0 refresh grant. */
export class TokenRequestDto {
  @ApiPropertyOptional({ enum: GRANT_TYPES, default: 'password' })
  @IsOptional()
  @IsIn(GRANT_TYPES)
  grant_type?: GrantType;

  @ApiPropertyOptional({
    minLength: 4,
    maxLength: 128,
    description: 'User e-mail or API key public key (password grant)',
  })
  @ValidateIf(isPasswordGrant)
  @IsString()
  @Length(4, 128)
  username?: string;

  @ApiPropertyOptional({
    minLength: 4,
    maxLength: 128,
    description: 'Password or API key private key (password grant)',
  })
  @ValidateIf(isPasswordGrant)
  @IsString()
  @Length(4, 128)
  password?: string;

  @ApiPropertyOptional({
    minLength: 3,
    maxLength: 128,
    description: 'Tenant slug; scopes the token (password grant)',
  })
  @ValidateIf(isPasswordGrant)
  @IsString()
  @Length(3, 128)
  tenant?: string;

  @ApiPropertyOptional({
    enum: ENTITY_TYPES,
    description: "Entity type to authenticate against; default: the tenant's",
  })
  @IsOptional()
  @IsIn(ENTITY_TYPES)
  context?: EntityType;

  @ApiPropertyOptional({
    minLength: 36,
    maxLength: 36,
    description: 'Tenant UUID; embedded as claim data.uuid',
  })
  @IsOptional()
  @IsString()
  @Length(36, 36)
  @IsUUID('all')
  uuid?: string;

  @ApiPropertyOptional({ maxLength: 512, description: 'Required with grant_type refresh_token' })
  @ValidateIf((request: TokenRequestDto) => request.grant_type === 'refresh_token')
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
}
