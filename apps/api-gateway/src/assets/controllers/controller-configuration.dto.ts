import { ApiProperty } from '@nestjs/swagger';
import { CONFIGURATION_SOURCE_MESSAGES, type ControllerConfigurationFilter } from '@cpc/contracts';
import { IsString, Length } from 'class-validator';
import { AssetPaginationBody, FilterQuery, PageQuery } from '../../common/asset-list-query.js';
import { ApiOmittedWhenUnset, OptionalField } from '../../common/dto-decorators.js';

export class ControllerConfigurationFilterQuery implements ControllerConfigurationFilter {
  @OptionalField() @IsString() @Length(1, 50) component?: string;
  @OptionalField() @IsString() @Length(1, 200) key_prefix?: string;
}

export const CONTROLLER_CONFIGURATION_FILTER_DOCS = {
  component: { type: 'string', description: '2.0.1: the component name, exactly.' },
  key_prefix: { type: 'string', description: 'The start of the key, case-sensitive.' },
};

/** Ordered by key; no order_by. */
export class ControllerConfigurationQuery extends PageQuery {
  @FilterQuery(() => ControllerConfigurationFilterQuery) filter?: ControllerConfigurationFilterQuery;
}

const nullableString = { type: 'string' } as const;
const nullableInteger = { type: 'integer' } as const;

/** One configuration key (1.6) or variable attribute (2.0.1) as the charge point last reported it. */
export class ControllerConfigurationEntryBody {
  @ApiProperty({
    description:
      'The 1.6 key, or for 2.0.1 Component[instance]@evse/connector.Variable[instance]:AttributeType with ' +
      'each extra only when present (the attribute type unless Actual), e.g. OCPPCommCtrlr.HeartbeatInterval ' +
      '(as refresh_configuration names it). Unique per controller; the list is ordered by it (byte order).',
    example: 'OCPPCommCtrlr.HeartbeatInterval',
  })
  key: string;
  @ApiOmittedWhenUnset(nullableString, { description: '2.0.1 component; null on 1.6.' }) component:
    string | null;
  @ApiOmittedWhenUnset(nullableString) component_instance: string | null;
  @ApiOmittedWhenUnset(nullableInteger) evse_id: number | null;
  @ApiOmittedWhenUnset(nullableInteger) connector_id: number | null;
  @ApiProperty({ description: 'The 1.6 key or the 2.0.1 variable name.' }) variable: string;
  @ApiOmittedWhenUnset(nullableString) variable_instance: string | null;
  @ApiOmittedWhenUnset(nullableString, { description: '2.0.1: Actual, Target, MinSet, MaxSet; null on 1.6.' })
  attribute_type: string | null;
  @ApiOmittedWhenUnset(nullableString, { description: 'As reported; null when none was.' }) value:
    string | null;
  @ApiOmittedWhenUnset(nullableString, {
    description: 'ReadOnly, ReadWrite, WriteOnly; null when never reported.',
  })
  mutability: string | null;
  @ApiOmittedWhenUnset(
    { type: 'object', additionalProperties: true },
    {
      description:
        '2.0.1 variableCharacteristics from a NotifyReport (unit, dataType, limits, valuesList …).',
    },
  )
  characteristics: Record<string, unknown> | null;
  @ApiProperty({
    description:
      'How the charge point answered about it: Accepted, UnknownKey (1.6), Rejected, UnknownComponent, ' +
      'UnknownVariable, NotSupportedAttributeType, RebootRequired, …',
  })
  status: string;
  @ApiProperty({ enum: CONFIGURATION_SOURCE_MESSAGES }) source_message: string;
  @ApiOmittedWhenUnset(
    { type: 'string', format: 'uuid' },
    { description: 'The command whose answer or report brought the value; null when not known.' },
  )
  source_command_uuid: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', example: '2025-05-04T10:20:30Z' }) reported_at: string;
}

export class ControllerConfigurationResponse {
  @ApiProperty({ type: [ControllerConfigurationEntryBody] })
  configuration: ControllerConfigurationEntryBody[];
  @ApiProperty({ type: AssetPaginationBody }) pagination: AssetPaginationBody;
}
