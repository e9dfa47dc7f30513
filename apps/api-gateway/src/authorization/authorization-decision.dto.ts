import { ApiProperty } from '@nestjs/swagger';
import {
  AUTHORIZATION_DECISION_SORT_FIELDS,
  AUTHORIZATION_MESSAGE_KINDS,
  AUTHORIZATION_REASONS,
  AUTHORIZATION_RESULTS,
  type AuthorizationDecisionFilter,
  type AuthorizationMessageKind,
  type AuthorizationReason,
  type AuthorizationResult,
  ID_TOKEN_MAX_LENGTH,
  ID_TOKEN_TYPES,
  type IdTokenType,
} from '@cpc/contracts';
import { IsIn, IsISO8601, IsString, Length } from 'class-validator';
import {
  CursorPageQuery,
  CursorPaginationBody,
  FilterQuery,
  LIST_PAGINATION_SCHEMA,
  OrderByQuery,
  PagePaginationBody,
} from '../common/asset-list-query.js';
import { ApiOmittedWhenUnset, IsUuidString, OptionalField } from '../common/dto-decorators.js';

export class AuthorizationDecisionFilterQuery implements AuthorizationDecisionFilter {
  @OptionalField() @IsString() @Length(1, ID_TOKEN_MAX_LENGTH) id_token?: string;
  @OptionalField() @IsUuidString() controller_uuid?: string;
  @OptionalField() @IsIn(AUTHORIZATION_RESULTS) result?: AuthorizationResult;
  @OptionalField() @IsISO8601({ strict: true }) decided_from?: string;
  @OptionalField() @IsISO8601({ strict: true }) decided_to?: string;
}

export const AUTHORIZATION_DECISION_FILTER_DOCS = {
  id_token: { type: 'string', description: 'The value the charge point sent, case-insensitive.' },
  controller_uuid: { type: 'string', format: 'uuid' },
  result: { type: 'string', enum: AUTHORIZATION_RESULTS },
  decided_from: { type: 'string', format: 'date-time', description: 'Decisions at or after.' },
  decided_to: { type: 'string', format: 'date-time', description: 'Decisions before.' },
};

export class AuthorizationDecisionListQuery extends CursorPageQuery {
  @OrderByQuery(AUTHORIZATION_DECISION_SORT_FIELDS) order_by?: string;
  @FilterQuery(() => AuthorizationDecisionFilterQuery) filter?: AuthorizationDecisionFilterQuery;
}

const DATE_TIME = { type: 'string', format: 'date-time', example: '2026-05-04T10:20:30Z' } as const;

export class AuthorizationDecisionBody {
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ description: 'The value the charge point sent.' }) id_token: string;
  @ApiOmittedWhenUnset(
    { type: 'string', enum: ID_TOKEN_TYPES },
    { description: 'Of the token found, else as a 2.0.1 message named it; null for an unknown 1.6 idTag.' },
  )
  type: IdTokenType | null;
  @ApiOmittedWhenUnset(
    { type: 'string', format: 'uuid' },
    { description: "The tenant's token the answer was about; null when the value was not known." },
  )
  id_token_uuid: string | null;
  @ApiProperty({ format: 'uuid' }) controller_uuid: string;
  @ApiProperty({ format: 'uuid', description: "The controller's location when its socket opened." })
  location_uuid: string;
  @ApiProperty({ enum: AUTHORIZATION_RESULTS }) result: AuthorizationResult;
  @ApiProperty({ enum: AUTHORIZATION_REASONS }) reason: AuthorizationReason;
  @ApiProperty({ enum: AUTHORIZATION_MESSAGE_KINDS }) message_kind: AuthorizationMessageKind;
  @ApiProperty(DATE_TIME) decided_at: string;
}

export class AuthorizationDecisionListResponse {
  @ApiProperty({ type: [AuthorizationDecisionBody] }) decisions: AuthorizationDecisionBody[];
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
}
