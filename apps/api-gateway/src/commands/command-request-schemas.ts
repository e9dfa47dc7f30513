import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import {
  ALLOWED_URI_SCHEMES,
  ATTRIBUTE_TYPES,
  AVAILABILITIES,
  CHARGING_PROFILE_KINDS,
  CHARGING_PROFILE_PURPOSES,
  CHARGING_RATE_UNITS,
  type ChargingProfileParameters,
  type ChargingScheduleParameters,
  type ChargingSchedulePeriodParameters,
  COMMAND_TARGET_TYPES,
  COMMAND_TYPES,
  type CommandParametersByType,
  type CommandType,
  CONFIGURATION_KEY,
  CONFIGURATION_KEY_MAX_LENGTH,
  CONFIGURATION_VALUE_MAX_LENGTH,
  DEVICE_MODEL_NAME_MAX_LENGTH,
  ID_TAG_MAX_LENGTH,
  type KeySetting,
  INT32_MAX,
  LOCAL_LIST_UPDATE_TYPES,
  LOCATION_MAX_LENGTH,
  MAX_CONFIGURATION_KEYS,
  MAX_CONFIGURATION_SETTINGS,
  MAX_LOCAL_LIST_TOKENS,
  MAX_SCHEDULE_PERIODS,
  PRINTABLE_ASCII,
  RECURRENCY_KINDS,
  TRIGGERABLE_MESSAGES,
  VARIABLE_VALUE_MAX_LENGTH,
  type VariableSetting,
} from '@cpc/ocpp-commands';

/**
 * The create-command body per command type, as OpenAPI components: `CreateCommandRequest` is a `oneOf` over one
 * schema per type, told apart by `type` (a discriminator), so client generators produce one typed request per
 * command. Field names are tied to the parameter types of `@cpc/ocpp-commands` (a missing or extra property does not
 * compile) and limits come from its constants; the parser there stays the judge of a request.
 */

type Schema = SchemaObject | ReferenceObject;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/** An object schema whose properties are exactly the fields of `P`. */
function fieldsOf<P extends object>(
  description: string,
  properties: { [K in keyof Required<P>]: Schema },
  required: readonly RequiredKeys<P>[],
): SchemaObject {
  return {
    type: 'object',
    description,
    properties,
    ...(required.length > 0 ? { required: [...required] as string[] } : {}),
    additionalProperties: false,
  };
}

const integer = (description: string, minimum = 0): SchemaObject => ({
  type: 'integer',
  minimum,
  maximum: INT32_MAX,
  description,
});
const tenths = (description: string): SchemaObject => ({
  type: 'number',
  minimum: 0,
  maximum: INT32_MAX,
  multipleOf: 0.1,
  description: `${description} At most one decimal (OCPP 1.6 declares multipleOf 0.1).`,
});
const dateTime = (description: string): SchemaObject => ({
  type: 'string',
  format: 'date-time',
  description: `${description} RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.`,
});
const uri = (description: string): SchemaObject => ({
  type: 'string',
  format: 'uri',
  maxLength: LOCATION_MAX_LENGTH,
  description: `${description} An absolute URI with a host; schemes ${ALLOWED_URI_SCHEMES.join(', ')}.`,
});
const idTag: SchemaObject = {
  type: 'string',
  minLength: 1,
  maxLength: ID_TAG_MAX_LENGTH,
  pattern: PRINTABLE_ASCII.source,
  description: `The id token, printable ASCII; at most ${ID_TAG_MAX_LENGTH} characters (OCPP 1.6 CiString20).`,
};
const retries = integer('How often the charge point retries.');
const retryInterval = integer('Seconds between retries.');

const NO_PARAMETERS: SchemaObject = {
  type: 'object',
  description: 'This type takes no parameters.',
  maxProperties: 0,
  additionalProperties: false,
};

/** Shared parameter objects (charging profiles), named so generators make one type of each. */
const SHARED_PARAMETER_SCHEMAS: Record<string, SchemaObject> = {
  ChargingSchedulePeriodParameters: fieldsOf<ChargingSchedulePeriodParameters>(
    'One period of a charging schedule.',
    {
      start_period: integer(
        'Seconds from the schedule start; 0 in the first period, increasing from one period to the next.',
      ),
      limit: tenths('The charging rate limit in charging_rate_unit.'),
      number_phases: { type: 'integer', minimum: 1, maximum: 3, description: 'Phases to charge with.' },
    },
    ['start_period', 'limit'],
  ),
  ChargingScheduleParameters: fieldsOf<ChargingScheduleParameters>(
    'The schedule of a charging profile.',
    {
      charging_rate_unit: { type: 'string', enum: [...CHARGING_RATE_UNITS] },
      periods: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_SCHEDULE_PERIODS,
        items: ref('ChargingSchedulePeriodParameters'),
      },
      duration: integer('Seconds the schedule lasts.'),
      start_schedule: dateTime('Required when kind is absolute or recurring; not allowed when relative.'),
      min_charging_rate: tenths('The lowest rate the vehicle charges efficiently at.'),
    },
    ['charging_rate_unit', 'periods'],
  ),
  ChargingProfileParameters: fieldsOf<ChargingProfileParameters>(
    'A charging profile. Purposes per target: controller charge_point_max_profile or tx_default_profile; ' +
      'connector tx_default_profile; charging_session (and remote_start) tx_profile.',
    {
      id: integer('The profile id.'),
      stack_level: integer('The stack level.'),
      purpose: { type: 'string', enum: [...CHARGING_PROFILE_PURPOSES] },
      kind: { type: 'string', enum: [...CHARGING_PROFILE_KINDS] },
      recurrency_kind: {
        type: 'string',
        enum: [...RECURRENCY_KINDS],
        description: 'Required when kind is recurring, not allowed otherwise.',
      },
      valid_from: dateTime('Valid from (not after valid_to).'),
      valid_to: dateTime('Valid until.'),
      schedule: ref('ChargingScheduleParameters'),
    },
    ['id', 'stack_level', 'purpose', 'kind', 'schedule'],
  ),
};

const configurationKey: SchemaObject = {
  type: 'string',
  minLength: 1,
  maxLength: CONFIGURATION_KEY_MAX_LENGTH,
  pattern: CONFIGURATION_KEY.source,
};
const deviceModelName = (description: string): SchemaObject => ({
  type: 'string',
  minLength: 1,
  maxLength: DEVICE_MODEL_NAME_MAX_LENGTH,
  description,
});

SHARED_PARAMETER_SCHEMAS.KeySettingParameters = fieldsOf<KeySetting>(
  'A 1.6 configuration key and its new value (ChangeConfiguration).',
  {
    key: configurationKey,
    value: { type: 'string', maxLength: CONFIGURATION_VALUE_MAX_LENGTH },
  },
  ['key', 'value'],
);
SHARED_PARAMETER_SCHEMAS.VariableSettingParameters = fieldsOf<VariableSetting>(
  'A 2.0.1 variable attribute and its new value (SetVariables setVariableData).',
  {
    component: deviceModelName('Component name, as OCPP spells it (e.g. OCPPCommCtrlr).'),
    component_instance: deviceModelName('Component instance.'),
    evse_id: integer('The EVSE of the component; absent: station level.'),
    connector_id: integer('The connector of the component within its EVSE (only with evse_id).', 1),
    variable: deviceModelName('Variable name (e.g. HeartbeatInterval).'),
    variable_instance: deviceModelName('Variable instance.'),
    attribute_type: { type: 'string', enum: [...ATTRIBUTE_TYPES], description: 'Absent: Actual.' },
    value: { type: 'string', maxLength: VARIABLE_VALUE_MAX_LENGTH },
  },
  ['component', 'variable', 'value'],
);

/** The `parameters` of each command type. */
const PARAMETERS: { [T in CommandType]: SchemaObject } = {
  soft_reset: NO_PARAMETERS,
  hard_reset: NO_PARAMETERS,
  clear_cache: NO_PARAMETERS,
  unlock: NO_PARAMETERS,
  identify: NO_PARAMETERS,
  remote_stop: NO_PARAMETERS,
  get_local_list_version: NO_PARAMETERS,
  change_availability: fieldsOf<CommandParametersByType['change_availability']>(
    'Availability of the charge point or connector.',
    { availability: { type: 'string', enum: [...AVAILABILITIES] } },
    ['availability'],
  ),
  update_firmware: fieldsOf<CommandParametersByType['update_firmware']>(
    'Where to fetch the firmware and when.',
    {
      location: uri('Where the charge point downloads the firmware.'),
      retrieve_at: dateTime('Download no earlier than this; absent: now.'),
      retries,
      retry_interval: retryInterval,
      install_at: dateTime('Install no earlier than this (not before retrieve_at).'),
    },
    ['location'],
  ),
  request_diagnostics: fieldsOf<CommandParametersByType['request_diagnostics']>(
    'Where to upload the diagnostics and which period they cover.',
    {
      location: uri('Where the charge point uploads the diagnostics.'),
      start_time: dateTime('Oldest entry wanted (not after stop_time).'),
      stop_time: dateTime('Newest entry wanted.'),
      retries,
      retry_interval: retryInterval,
    },
    ['location'],
  ),
  refresh_configuration: fieldsOf<CommandParametersByType['refresh_configuration']>(
    'Which configuration keys to read; absent or empty: all.',
    {
      keys: {
        type: 'array',
        maxItems: MAX_CONFIGURATION_KEYS,
        items: {
          type: 'string',
          minLength: 1,
          maxLength: CONFIGURATION_KEY_MAX_LENGTH,
          pattern: CONFIGURATION_KEY.source,
        },
      },
    },
    [],
  ),
  change_configuration: fieldsOf<CommandParametersByType['change_configuration']>(
    'The settings to change, in order, all of one kind: 1.6 keys or 2.0.1 variables. At most what the charge ' +
      'point allows as far as its stored configuration tells (1.6 GetConfigurationMaxKeys, 2.0.1 ' +
      `ItemsPerMessageSetVariables), else ${MAX_CONFIGURATION_SETTINGS}.`,
    {
      settings: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_CONFIGURATION_KEYS,
        items: { oneOf: [ref('KeySettingParameters'), ref('VariableSettingParameters')] },
      },
    },
    ['settings'],
  ),
  send_local_list: fieldsOf<CommandParametersByType['send_local_list']>(
    "The controller's local authorization list: which tokens, and how (docs/authorization.md).",
    {
      update_type: {
        type: 'string',
        enum: [...LOCAL_LIST_UPDATE_TYPES],
        description:
          'full: the list becomes these tokens; differential: only what changed since the list the controller ' +
          'accepted last (added, changed and removed tokens).',
      },
      id_token_uuids: {
        type: 'array',
        maxItems: MAX_LOCAL_LIST_TOKENS,
        items: { type: 'string', format: 'uuid' },
        description:
          "The tenant's id tokens to list; absent: every token allowed at the controller's location.",
      },
      full_on_version_mismatch: {
        type: 'boolean',
        description: 'After a VersionMismatch answer, send the whole list as a full update at once.',
      },
    },
    ['update_type'],
  ),
  trigger_message: fieldsOf<CommandParametersByType['trigger_message']>(
    'The message the charge point is asked to send (a connector target: meter_values or status_notification).',
    { message: { type: 'string', enum: [...TRIGGERABLE_MESSAGES] } },
    ['message'],
  ),
  remote_start: fieldsOf<CommandParametersByType['remote_start']>(
    'Who starts, and optionally with which profile.',
    { id_tag: idTag, charging_profile: ref('ChargingProfileParameters') },
    ['id_tag'],
  ),
  reserve: fieldsOf<CommandParametersByType['reserve']>(
    'Who the reservation is for and until when.',
    {
      id_tag: idTag,
      expires_at: dateTime('When the reservation ends; must lie in the future.'),
      reservation_id: integer('Absent: derived from the command uuid.'),
    },
    ['id_tag', 'expires_at'],
  ),
  cancel_reservation: fieldsOf<CommandParametersByType['cancel_reservation']>(
    'The reservation to cancel.',
    { reservation_id: integer('The id of the reservation.') },
    ['reservation_id'],
  ),
  set_charging_profile: fieldsOf<CommandParametersByType['set_charging_profile']>(
    'The profile to set.',
    { charging_profile: ref('ChargingProfileParameters') },
    ['charging_profile'],
  ),
  clear_charging_profile: fieldsOf<CommandParametersByType['clear_charging_profile']>(
    'Which profiles to clear; each field narrows the selection, none clears every profile.',
    {
      id: integer('The profile id.'),
      purpose: { type: 'string', enum: [...CHARGING_PROFILE_PURPOSES] },
      stack_level: integer('The stack level.'),
    },
    [],
  ),
};

/** `soft_reset` → `SoftResetCommandRequest`. */
export function commandRequestSchemaName(type: CommandType): string {
  const pascal = type.replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase());
  return `${pascal}CommandRequest`;
}

const parametersSchemaName = (type: CommandType) =>
  commandRequestSchemaName(type).replace(/CommandRequest$/, 'Parameters');

const VALID_FOR_SECONDS: SchemaObject = {
  type: 'integer',
  minimum: 0,
  maximum: 86400,
  default: 0,
  description:
    'How long the command may wait for an offline charge point to connect; 0 fails it at once with ' +
    'charge_point_offline when the charge point is not connected.',
};

function requestSchema(type: CommandType): SchemaObject {
  const parameters = PARAMETERS[type];
  const parametersRequired = (parameters.required ?? []).length > 0;
  return {
    type: 'object',
    title: `${type} command`,
    properties: {
      type: { type: 'string', enum: [type] },
      target_type: {
        type: 'string',
        enum: [...COMMAND_TARGET_TYPES[type]],
        description: 'The target types this command type can address (422 on type otherwise).',
      },
      target_uuid: {
        type: 'string',
        format: 'uuid',
        description: 'A controller, plug (connector) or charging session of the tenant.',
      },
      parameters: parameters === NO_PARAMETERS ? NO_PARAMETERS : ref(parametersSchemaName(type)),
      valid_for_seconds: VALID_FOR_SECONDS,
    },
    required: ['type', 'target_type', 'target_uuid', ...(parametersRequired ? ['parameters'] : [])],
    additionalProperties: false,
  };
}

export const CREATE_COMMAND_REQUEST_SCHEMA = 'CreateCommandRequest';

/** Every component the create-command body needs, to merge into the document's `components.schemas`. */
export function commandRequestSchemas(): Record<string, SchemaObject> {
  const schemas: Record<string, SchemaObject> = { ...SHARED_PARAMETER_SCHEMAS };
  for (const type of COMMAND_TYPES) {
    if (PARAMETERS[type] !== NO_PARAMETERS) schemas[parametersSchemaName(type)] = PARAMETERS[type];
    schemas[commandRequestSchemaName(type)] = requestSchema(type);
  }
  schemas[CREATE_COMMAND_REQUEST_SCHEMA] = {
    description:
      'A command to create. `type` selects the schema, and with it which target types and parameters are ' +
      'allowed (docs/spec/ocpp-mapping.md). command-service judges the body and reports every problem at once.',
    oneOf: COMMAND_TYPES.map((type) => ref(commandRequestSchemaName(type))),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(
        COMMAND_TYPES.map((type) => [type, `#/components/schemas/${commandRequestSchemaName(type)}`]),
      ),
    },
  };
  return schemas;
}
