import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  COMMAND_RESULT_ERRORS,
  COMMAND_STATUSES,
  COMMAND_TYPES,
  type CommandStatus,
  type CommandType,
  TARGET_TYPES,
  type TargetType,
} from '@cpc/ocpp-commands';
import { COMMAND_LIST_INCLUDES, COMMAND_SORT_FIELDS, type CommandFilter } from '@cpc/contracts';
import { IsIn, IsString, Matches } from 'class-validator';
import {
  CursorPageQuery,
  CursorPaginationBody,
  LIST_PAGINATION_SCHEMA,
  PagePaginationBody,
  FilterQuery,
  ORDER_BY_DESCRIPTION,
} from '../common/asset-list-query.js';
import {
  ApiOmittedWhenUnset,
  IsUuidString,
  OptionalField,
  OrderByTransform,
  orderByPattern,
} from '../common/dto-decorators.js';

/** The spec's date-time: seconds precision, `Z` or an offset. */
const DATE_TIME = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(Z|[+-]\\d{2}:\\d{2})$',
  example: '2025-05-04T10:20:30Z',
} as const;

export const DEFAULT_COMMAND_ORDER = '-created_at';

export class CommandFilterQuery implements CommandFilter {
  @OptionalField() @IsIn(TARGET_TYPES) target_type?: TargetType;
  @OptionalField() @IsUuidString() target_uuid?: string;
  @OptionalField() @IsIn(COMMAND_TYPES) type?: CommandType;
  @OptionalField() @IsIn(COMMAND_STATUSES) status?: CommandStatus;
}

export const COMMAND_FILTER_DOCS = {
  target_type: { type: 'string', enum: TARGET_TYPES },
  target_uuid: { type: 'string', format: 'uuid', description: 'Target UUID' },
  type: { type: 'string', enum: COMMAND_TYPES },
  status: { type: 'string', enum: COMMAND_STATUSES },
};

const ORDER_BY = orderByPattern(COMMAND_SORT_FIELDS);
const INCLUDE_VALUE = `(${COMMAND_LIST_INCLUDES.join('|')})`;
const INCLUDE = new RegExp(`^${INCLUDE_VALUE}(,${INCLUDE_VALUE})*$`);

export class CommandListQuery extends CursorPageQuery {
  @ApiPropertyOptional({
    pattern: ORDER_BY.source,
    default: DEFAULT_COMMAND_ORDER,
    example: DEFAULT_COMMAND_ORDER,
    description: `${ORDER_BY_DESCRIPTION} The only sortable field is created_at (ties: command_uuid).`,
  })
  @OptionalField()
  @OrderByTransform()
  @IsString()
  @Matches(ORDER_BY, { message: `order_by must match ${ORDER_BY.source}` })
  order_by?: string;

  @FilterQuery(() => CommandFilterQuery) filter?: CommandFilterQuery;

  @ApiPropertyOptional({
    pattern: INCLUDE.source,
    example: 'response',
    description:
      "Comma-separated optional parts of each command: `response` adds the charge point's answer as " +
      '`result.response` (always on a single command).',
  })
  @OptionalField()
  @IsString()
  @Matches(INCLUDE, { message: `include must match ${INCLUDE.source}` })
  include?: string;
}

const RESULT_ERROR_DESCRIPTION =
  'Failure key, present only when the command failed: charge_point_offline (not connected within the validity), ' +
  'connection_lost (the connection dropped while the call was in flight), target_deleted (the target was deleted ' +
  'before delivery), invalid_response (the answer was not a valid reply), invalid_target / invalid_parameters (the ' +
  'command could not become a valid OCPP call for this charge point), ocpp_<code> (the charge point answered with ' +
  'a CALLERROR, e.g. ocpp_not_implemented).';

export class ConfigurationSettingResultBody {
  @ApiPropertyOptional({ description: '1.6: the key.' }) key?: string;
  @ApiPropertyOptional({ description: '2.0.1: the component.' }) component?: string;
  @ApiPropertyOptional() component_instance?: string;
  @ApiPropertyOptional({ type: 'integer' }) evse_id?: number;
  @ApiPropertyOptional({ type: 'integer' }) connector_id?: number;
  @ApiPropertyOptional({ description: '2.0.1: the variable.' }) variable?: string;
  @ApiPropertyOptional() variable_instance?: string;
  @ApiPropertyOptional({ description: '2.0.1: Actual, Target, MinSet, MaxSet.' }) attribute_type?: string;
  @ApiProperty({ description: 'The value sent.' }) value: string;
  @ApiProperty({ example: 'Accepted' }) status: string;
}

export class CommandResultBody {
  @ApiPropertyOptional({
    description:
      'The status the charge point answered, as sent (e.g. Accepted, Rejected, Unlocked). Stand-ins for answers ' +
      'without one: Accepted for any valid 1.6 UpdateFirmware / GetConfiguration reply and for a 2.0.1 ' +
      'GetVariables reply; Accepted / Rejected for a 1.6 GetDiagnostics reply with / without a fileName.',
    example: 'Accepted',
  })
  status?: string;

  @ApiPropertyOptional({ enum: COMMAND_RESULT_ERRORS, description: RESULT_ERROR_DESCRIPTION })
  error?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "The charge point's answer exactly as received (the OCPP reply payload), once it answered; on a list only " +
      'with include=response. See docs/commands.md.',
  })
  response?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'Size in bytes of an answer too large to keep (then there is no response).',
  })
  response_omitted_bytes?: number;

  @ApiPropertyOptional({
    type: [ConfigurationSettingResultBody],
    description:
      'change_configuration: each setting sent, in order, with the status the charge point answered for it ' +
      '(Accepted, RebootRequired, Rejected, NotSupported, UnknownComponent, UnknownVariable, ' +
      'NotSupportedAttributeType), or how its call ended without an answer (Timeout, CallError, InvalidResponse, ' +
      'ConnectionLost, NotSent). The command is accepted only when every one is Accepted or RebootRequired.',
  })
  settings?: ConfigurationSettingResultBody[];
}

export class CommandBody {
  @ApiProperty({ format: 'uuid' }) command_uuid: string;
  @ApiProperty({ enum: TARGET_TYPES }) target_type: string;
  @ApiProperty({ format: 'uuid' }) target_uuid: string;
  @ApiProperty({ enum: COMMAND_TYPES }) type: string;
  @ApiProperty({
    enum: COMMAND_STATUSES,
    description:
      'pending → sent → accepted | rejected | timeout | failed; never backwards, never out of a terminal state.',
  })
  status: string;
  @ApiOmittedWhenUnset(
    { $ref: '#/components/schemas/CommandResultBody' },
    {
      description:
        'Null while pending or sent. A timeout has neither status nor error ({}); see docs/commands.md for every key.',
    },
  )
  result: CommandResultBody | null;
  @ApiProperty(DATE_TIME) created_at: string;
  @ApiOmittedWhenUnset(DATE_TIME, { description: 'Null while pending or sent.' }) completed_at: string | null;
}

export class CommandResponse {
  @ApiProperty({ type: CommandBody }) command: CommandBody;
}

export class CommandListResponse {
  @ApiProperty({ type: [CommandBody] }) commands: CommandBody[];
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
}

// The create body is documented per command type in command-request-schemas.ts.

/** The `Idempotency-Key` request header as documented. */
export const IDEMPOTENCY_KEY_HEADER_DOC = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Repeating a request with the same key and body within 24 hours returns the first command (202) and delivers ' +
    'nothing again; the same key with another body is refused (422, errorKey idempotency_key_reused). 1 to 255 ' +
    'visible ASCII characters.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
