import { MAX_ID_TOKENS_PER_IMPORT, UUID_PATTERN } from '@cpc/contracts';
import type { CommandType, TargetType } from './command-model.js';
import { type FieldReader } from './field-reader.js';
import { CommandValidationErrorKey as ErrorKey } from './validation-error-keys.js';

export const AVAILABILITIES = ['operative', 'inoperative'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/** 1.6 `ChargePointMaxProfile` / 2.0.1 `ChargingStationMaxProfile`, `TxDefaultProfile`, `TxProfile`. The 2.0.1-only
 * `ChargingStationExternalConstraints` is set by external systems, never by the CSMS, so it is not offered. */
export const CHARGING_PROFILE_PURPOSES = [
  'charge_point_max_profile',
  'tx_default_profile',
  'tx_profile',
] as const;
export type ChargingProfilePurpose = (typeof CHARGING_PROFILE_PURPOSES)[number];
export const CHARGING_PROFILE_KINDS = ['absolute', 'recurring', 'relative'] as const;
export type ChargingProfileKind = (typeof CHARGING_PROFILE_KINDS)[number];
export const RECURRENCY_KINDS = ['daily', 'weekly'] as const;
export type RecurrencyKind = (typeof RECURRENCY_KINDS)[number];
/** SI unit symbols, as OCPP spells them. */
export const CHARGING_RATE_UNITS = ['A', 'W'] as const;
export type ChargingRateUnit = (typeof CHARGING_RATE_UNITS)[number];

/**
 * id_tag is at most 20 characters although 2.0.1 allows 36: a command is validated when it is created, before the
 * platform knows which protocol the charge point will speak when the command is delivered (it may be offline, and a
 * charge point may be reconfigured between 1.6 and 2.0.1). Accepting 21 to 36 characters would let a command pass
 * creation and then be impossible to send to a 1.6 charge point, so the stricter limit (1.6 `CiString20`) applies.
 * The same rule (the stricter protocol wins) is applied to every other limit in this file.
 */
export const ID_TAG_MAX_LENGTH = 20;
/** Printable ASCII (OCPP `CiString`): id tags. */
export const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
/** 2.0.1 firmware `location` and log `remoteLocation` are `string(512)`; 1.6 has no limit. */
export const LOCATION_MAX_LENGTH = 512;
/** 1.6 GetConfiguration `key` items are `CiString50`. */
export const CONFIGURATION_KEY_MAX_LENGTH = 50;
/** Keys per refresh_configuration (a request of reasonable size; charge points limit it further themselves). */
export const MAX_CONFIGURATION_KEYS = 100;
/** 2.0.1 `chargingSchedulePeriod` holds 1 to 1024 periods. */
export const MAX_SCHEDULE_PERIODS = 1024;
/** Printable ASCII without spaces: configuration keys. */
export const CONFIGURATION_KEY = /^[\x21-\x7E]+$/;
/**
 * Settings per change_configuration when the charge point's own limit is not known from its stored configuration
 * (1.6 GetConfigurationMaxKeys, 2.0.1 ItemsPerMessageSetVariables; command-service checks it at creation): a request
 * of reasonable size. MAX_CONFIGURATION_KEYS bounds any change, whatever the charge point reports.
 */
export const MAX_CONFIGURATION_SETTINGS = 20;
/** 1.6 ChangeConfiguration `value` is `CiString500`. */
export const CONFIGURATION_VALUE_MAX_LENGTH = 500;
/** 2.0.1 SetVariables `attributeValue` is `string(1000)`. */
export const VARIABLE_VALUE_MAX_LENGTH = 1000;
/** 2.0.1 component, variable and instance names are `string(50)`. */
export const DEVICE_MODEL_NAME_MAX_LENGTH = 50;
/** 2.0.1 `AttributeEnumType`, as OCPP spells it (like component and variable names). */
export const ATTRIBUTE_TYPES = ['Actual', 'Target', 'MinSet', 'MaxSet'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];
/**
 * trigger_message `message`: the messages both protocols can be asked for (1.6 TriggerMessage `requestedMessage`,
 * 2.0.1 `MessageTriggerEnumType`), snake_case; diagnostics_status_notification is 1.6
 * DiagnosticsStatusNotification / 2.0.1 LogStatusNotification.
 */
export const TRIGGERABLE_MESSAGES = [
  'boot_notification',
  'heartbeat',
  'meter_values',
  'status_notification',
  'firmware_status_notification',
  'diagnostics_status_notification',
] as const;
export type TriggerableMessage = (typeof TRIGGERABLE_MESSAGES)[number];
/** The messages about one connector (the others are about the whole charge point). */
const CONNECTOR_MESSAGES: readonly TriggerableMessage[] = ['meter_values', 'status_notification'];

// Normalized parameters: what `parseCommandRequest` returns for a valid request. Field names stay snake_case as in the
// API; optional fields are absent (never null); date-times are UTC (see FieldReader.dateTime).

export type EmptyParameters = Record<string, never>;

export interface ChangeAvailabilityParameters {
  availability: Availability;
}

export interface UpdateFirmwareParameters {
  location: string;
  /** Absent = "now": the gateway uses the time of sending (see buildOcppCall). */
  retrieve_at?: string;
  retries?: number;
  retry_interval?: number;
  /** 2.0.1 `installDateTime`; 1.6 has none and retrieves no earlier than this instead (see buildOcppCall). */
  install_at?: string;
}

export interface RequestDiagnosticsParameters {
  location: string;
  start_time?: string;
  stop_time?: string;
  retries?: number;
  retry_interval?: number;
}

export interface RefreshConfigurationParameters {
  /** Distinct keys, in the order given; absent (or given empty) = the whole configuration. */
  keys?: string[];
}

/** A 1.6 configuration key to change. */
export interface KeySetting {
  key: string;
  value: string;
}

/** A 2.0.1 variable attribute to set. */
export interface VariableSetting {
  component: string;
  component_instance?: string;
  /** The component's EVSE (absent: a station-level component). */
  evse_id?: number;
  connector_id?: number;
  variable: string;
  variable_instance?: string;
  /** Absent: Actual. */
  attribute_type?: AttributeType;
  value: string;
}

export interface ChangeConfigurationParameters {
  /** In the order given; all of one kind (keys for 1.6, variables for 2.0.1). */
  settings: KeySetting[] | VariableSetting[];
}

export interface TriggerMessageParameters {
  message: TriggerableMessage;
}

export interface ChargingSchedulePeriodParameters {
  start_period: number;
  limit: number;
  number_phases?: number;
}

export interface ChargingScheduleParameters {
  charging_rate_unit: ChargingRateUnit;
  periods: ChargingSchedulePeriodParameters[];
  duration?: number;
  start_schedule?: string;
  min_charging_rate?: number;
}

export interface ChargingProfileParameters {
  id: number;
  stack_level: number;
  purpose: ChargingProfilePurpose;
  kind: ChargingProfileKind;
  recurrency_kind?: RecurrencyKind;
  valid_from?: string;
  valid_to?: string;
  schedule: ChargingScheduleParameters;
}

export interface RemoteStartParameters {
  id_tag: string;
  charging_profile?: ChargingProfileParameters;
}

export interface ReserveParameters {
  id_tag: string;
  expires_at: string;
  /** Absent = generated from the command uuid (see reservationIdFor). */
  reservation_id?: number;
}

export interface CancelReservationParameters {
  reservation_id: number;
}

export interface SetChargingProfileParameters {
  charging_profile: ChargingProfileParameters;
}

export interface ClearChargingProfileParameters {
  id?: number;
  purpose?: ChargingProfilePurpose;
  stack_level?: number;
}

/** send_local_list `update_type`: 1.6 / 2.0.1 `updateType` Full or Differential. */
export const LOCAL_LIST_UPDATE_TYPES = ['full', 'differential'] as const;
export type LocalListUpdateType = (typeof LOCAL_LIST_UPDATE_TYPES)[number];
/** Tokens one send_local_list may name explicitly: as many as one import may create. */
export const MAX_LOCAL_LIST_TOKENS = MAX_ID_TOKENS_PER_IMPORT;

export interface SendLocalListParameters {
  update_type: LocalListUpdateType;
  /** Distinct uuids of the tenant's id tokens, in the order given; absent = the tokens allowed at the controller's
   * location. Given empty: a full update clears the list, a differential one takes off everything sent before. */
  id_token_uuids?: string[];
  /** After a VersionMismatch answer, send the whole list at once as a full update (same delivery). */
  full_on_version_mismatch?: boolean;
}

export interface CommandParametersByType {
  soft_reset: EmptyParameters;
  hard_reset: EmptyParameters;
  clear_cache: EmptyParameters;
  change_availability: ChangeAvailabilityParameters;
  unlock: EmptyParameters;
  identify: EmptyParameters;
  update_firmware: UpdateFirmwareParameters;
  request_diagnostics: RequestDiagnosticsParameters;
  refresh_configuration: RefreshConfigurationParameters;
  remote_start: RemoteStartParameters;
  remote_stop: EmptyParameters;
  reserve: ReserveParameters;
  cancel_reservation: CancelReservationParameters;
  set_charging_profile: SetChargingProfileParameters;
  clear_charging_profile: ClearChargingProfileParameters;
  change_configuration: ChangeConfigurationParameters;
  trigger_message: TriggerMessageParameters;
  get_local_list_version: EmptyParameters;
  send_local_list: SendLocalListParameters;
}

export interface ParameterContext {
  /** Undefined when the request's target_type is itself invalid: target-dependent rules are then skipped. */
  targetType: TargetType | undefined;
  /** Reference time for "must lie in the future" rules; null skips them (re-reading a stored command). */
  now: Date | null;
}

type ParameterParser<P> = (reader: FieldReader, context: ParameterContext) => P | undefined;

/** Drops the keys whose value is undefined, so normalized objects carry only the fields that were given. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** Returns `value` when every listed field was read successfully, otherwise undefined. */
function complete<T extends object>(
  value: { [K in keyof T]: T[K] | undefined },
  required: (keyof T)[],
): T | undefined {
  return required.every((key) => value[key] !== undefined) ? compact(value as T) : undefined;
}

const noParameters: ParameterParser<EmptyParameters> = (reader) => {
  reader.rejectUnknown([]);
  return {};
};

const idTag = (reader: FieldReader): string | undefined =>
  reader.string('id_tag', {
    required: true,
    maxLength: ID_TAG_MAX_LENGTH,
    pattern: PRINTABLE_ASCII,
    patternMessage: 'must hold printable ASCII characters only',
  });

const retryFields = (reader: FieldReader) => ({
  retries: reader.integer('retries'),
  retry_interval: reader.integer('retry_interval'),
});

const location = (reader: FieldReader): string | undefined =>
  reader.uri('location', { required: true, maxLength: LOCATION_MAX_LENGTH });

/** Purposes a set_charging_profile may carry per target: the station-wide maximum only on the whole charge point
 * (1.6 connectorId 0 / 2.0.1 evseId 0), a transaction profile only on a transaction (2.0.1 rejects a TxProfile
 * without transactionId), defaults on the charge point or one connector. */
const PURPOSES_BY_TARGET: Readonly<Record<TargetType, readonly ChargingProfilePurpose[]>> = {
  controller: ['charge_point_max_profile', 'tx_default_profile'],
  connector: ['tx_default_profile'],
  charging_session: ['tx_profile'],
};

function chargingSchedulePeriods(schedule: FieldReader): ChargingSchedulePeriodParameters[] | undefined {
  const items = schedule.elements('periods', { required: true, minItems: 1, maxItems: MAX_SCHEDULE_PERIODS });
  if (items === undefined) return undefined;
  const periods: (ChargingSchedulePeriodParameters | undefined)[] = [];
  let previousStart: number | undefined;
  for (const [index, key] of items.indexes().entries()) {
    const period = items.object(key, { required: true });
    period?.rejectUnknown(['start_period', 'limit', 'number_phases']);
    const startPeriod = period?.integer('start_period', { required: true });
    // Periods follow each other: the first starts at 0 (offset from the schedule start), each later one after the last.
    if (index === 0 && startPeriod !== undefined && startPeriod !== 0) {
      period?.issue('start_period', ErrorKey.InvalidValue, 'must be 0 in the first period');
    } else if (startPeriod !== undefined && previousStart !== undefined && startPeriod <= previousStart) {
      period?.issue(
        'start_period',
        ErrorKey.InvalidValue,
        'must be greater than the start_period of the period before',
      );
    }
    previousStart = startPeriod;
    periods.push(
      period &&
        complete<ChargingSchedulePeriodParameters>(
          {
            start_period: startPeriod,
            limit: period.decimal('limit', { required: true }),
            number_phases: period.integer('number_phases', { min: 1, max: 3 }),
          },
          ['start_period', 'limit'],
        ),
    );
  }
  return periods.every((period) => period !== undefined) ? periods : undefined;
}

function chargingSchedule(profile: FieldReader, kind: ChargingProfileKind | undefined) {
  const schedule = profile.object('schedule', { required: true });
  if (!schedule) return undefined;
  schedule.rejectUnknown([
    'charging_rate_unit',
    'periods',
    'duration',
    'start_schedule',
    'min_charging_rate',
  ]);
  const chargingRateUnit = schedule.enumeration('charging_rate_unit', CHARGING_RATE_UNITS, {
    required: true,
  });
  const periods = chargingSchedulePeriods(schedule);
  const duration = schedule.integer('duration');
  // 2.0.1 (K01): absolute and recurring schedules need startSchedule, relative ones must not have it; 1.6 is looser.
  const startSchedule = schedule.dateTime('start_schedule', {
    required: kind === 'absolute' || kind === 'recurring',
  });
  if (kind === 'relative' && schedule.has('start_schedule')) {
    schedule.issue('start_schedule', ErrorKey.NotAllowed, 'is not allowed when kind is relative');
  }
  return complete<ChargingScheduleParameters>(
    {
      charging_rate_unit: chargingRateUnit,
      periods,
      duration,
      start_schedule: startSchedule,
      min_charging_rate: schedule.decimal('min_charging_rate'),
    },
    ['charging_rate_unit', 'periods'],
  );
}

function chargingProfile(
  parent: FieldReader,
  allowedPurposes: readonly ChargingProfilePurpose[] | undefined,
  purposeRule: string,
  required: boolean,
): ChargingProfileParameters | undefined {
  const profile = parent.object('charging_profile', { required });
  if (!profile) return undefined;
  profile.rejectUnknown([
    'id',
    'stack_level',
    'purpose',
    'kind',
    'recurrency_kind',
    'valid_from',
    'valid_to',
    'schedule',
  ]);
  const id = profile.integer('id', { required: true });
  const stackLevel = profile.integer('stack_level', { required: true });
  const purpose = profile.enumeration('purpose', CHARGING_PROFILE_PURPOSES, { required: true });
  if (purpose !== undefined && allowedPurposes !== undefined && !allowedPurposes.includes(purpose)) {
    profile.issue('purpose', ErrorKey.NotAllowed, `must be ${allowedPurposes.join(' or ')} ${purposeRule}`);
  }
  const kind = profile.enumeration('kind', CHARGING_PROFILE_KINDS, { required: true });
  const recurrencyKind = profile.enumeration('recurrency_kind', RECURRENCY_KINDS, {
    required: kind === 'recurring',
  });
  if (kind !== undefined && kind !== 'recurring' && profile.has('recurrency_kind')) {
    profile.issue('recurrency_kind', ErrorKey.NotAllowed, 'is only allowed when kind is recurring');
  }
  const validFrom = profile.dateTime('valid_from');
  const validTo = profile.dateTime('valid_to');
  profile.requireOrder('valid_from', validFrom, 'valid_to', validTo);
  return complete<ChargingProfileParameters>(
    {
      id,
      stack_level: stackLevel,
      purpose,
      kind,
      recurrency_kind: recurrencyKind,
      valid_from: validFrom,
      valid_to: validTo,
      schedule: chargingSchedule(profile, kind),
    },
    ['id', 'stack_level', 'purpose', 'kind', 'schedule'],
  );
}

const deviceModelName = (reader: FieldReader, key: string, required: boolean) =>
  reader.string(key, { required, maxLength: DEVICE_MODEL_NAME_MAX_LENGTH });

function keySetting(item: FieldReader): KeySetting | undefined {
  item.rejectUnknown(['key', 'value']);
  return complete<KeySetting>(
    {
      key: item.string('key', {
        required: true,
        maxLength: CONFIGURATION_KEY_MAX_LENGTH,
        pattern: CONFIGURATION_KEY,
        patternMessage: 'must hold printable ASCII characters without spaces',
      }),
      value: item.string('value', {
        required: true,
        maxLength: CONFIGURATION_VALUE_MAX_LENGTH,
        allowEmpty: true,
      }),
    },
    ['key', 'value'],
  );
}

function variableSetting(item: FieldReader): VariableSetting | undefined {
  item.rejectUnknown([
    'component',
    'component_instance',
    'evse_id',
    'connector_id',
    'variable',
    'variable_instance',
    'attribute_type',
    'value',
  ]);
  const evseId = item.integer('evse_id');
  const connectorId = item.integer('connector_id', { min: 1 });
  if (connectorId !== undefined && !item.has('evse_id')) {
    item.issue('connector_id', ErrorKey.NotAllowed, 'is only allowed with evse_id');
  }
  return complete<VariableSetting>(
    {
      component: deviceModelName(item, 'component', true),
      component_instance: deviceModelName(item, 'component_instance', false),
      evse_id: evseId,
      connector_id: connectorId,
      variable: deviceModelName(item, 'variable', true),
      variable_instance: deviceModelName(item, 'variable_instance', false),
      attribute_type: item.enumeration('attribute_type', ATTRIBUTE_TYPES),
      value: item.string('value', { required: true, maxLength: VARIABLE_VALUE_MAX_LENGTH, allowEmpty: true }),
    },
    ['component', 'variable', 'value'],
  );
}

/** One parser per command type: reads, checks and normalizes `parameters`, recording issues on the reader. */
export const PARAMETER_PARSERS: { [T in CommandType]: ParameterParser<CommandParametersByType[T]> } = {
  soft_reset: noParameters,
  hard_reset: noParameters,
  clear_cache: noParameters,
  unlock: noParameters,
  identify: noParameters,
  remote_stop: noParameters,
  get_local_list_version: noParameters,

  change_availability: (reader) => {
    reader.rejectUnknown(['availability']);
    return complete<ChangeAvailabilityParameters>(
      { availability: reader.enumeration('availability', AVAILABILITIES, { required: true }) },
      ['availability'],
    );
  },

  update_firmware: (reader) => {
    reader.rejectUnknown(['location', 'retrieve_at', 'retries', 'retry_interval', 'install_at']);
    const firmwareLocation = location(reader);
    const retrieveAt = reader.dateTime('retrieve_at');
    const retries = retryFields(reader);
    const installAt = reader.dateTime('install_at');
    reader.requireOrder('retrieve_at', retrieveAt, 'install_at', installAt);
    return complete<UpdateFirmwareParameters>(
      { location: firmwareLocation, retrieve_at: retrieveAt, ...retries, install_at: installAt },
      ['location'],
    );
  },

  request_diagnostics: (reader) => {
    reader.rejectUnknown(['location', 'start_time', 'stop_time', 'retries', 'retry_interval']);
    const uploadLocation = location(reader);
    const startTime = reader.dateTime('start_time');
    const stopTime = reader.dateTime('stop_time');
    reader.requireOrder('start_time', startTime, 'stop_time', stopTime);
    return complete<RequestDiagnosticsParameters>(
      { location: uploadLocation, start_time: startTime, stop_time: stopTime, ...retryFields(reader) },
      ['location'],
    );
  },

  refresh_configuration: (reader) => {
    reader.rejectUnknown(['keys']);
    const items = reader.elements('keys', { maxItems: MAX_CONFIGURATION_KEYS });
    if (items === undefined) return reader.has('keys') ? undefined : {};
    const keys = items.indexes().map((index) =>
      items.string(index, {
        required: true,
        maxLength: CONFIGURATION_KEY_MAX_LENGTH,
        pattern: CONFIGURATION_KEY,
        patternMessage: 'must hold printable ASCII characters without spaces',
      }),
    );
    if (!keys.every((key) => key !== undefined)) return undefined;
    return keys.length === 0 ? {} : { keys: [...new Set(keys)] };
  },

  change_configuration: (reader) => {
    reader.rejectUnknown(['settings']);
    const items = reader.elements('settings', {
      required: true,
      minItems: 1,
      maxItems: MAX_CONFIGURATION_KEYS,
    });
    if (items === undefined) return undefined;
    // The kind of the first setting decides: 1.6 keys ({key, value}) or 2.0.1 variables ({component, variable, …}).
    let byKey: boolean | undefined;
    const settings = items.indexes().map((index) => {
      const item = items.object(index, { required: true });
      if (!item) return undefined;
      byKey ??= item.has('key');
      if (byKey !== item.has('key')) {
        items.issue(index, ErrorKey.InvalidValue, 'must be of the same kind as the first setting');
        return undefined;
      }
      return byKey ? keySetting(item) : variableSetting(item);
    });
    if (!settings.every((setting) => setting !== undefined)) return undefined;
    return { settings } as ChangeConfigurationParameters;
  },

  send_local_list: (reader) => {
    reader.rejectUnknown(['update_type', 'id_token_uuids', 'full_on_version_mismatch']);
    const updateType = reader.enumeration('update_type', LOCAL_LIST_UPDATE_TYPES, { required: true });
    const fullOnVersionMismatch = reader.boolean('full_on_version_mismatch');
    let idTokenUuids: string[] | undefined;
    const items = reader.elements('id_token_uuids', { maxItems: MAX_LOCAL_LIST_TOKENS });
    if (items) {
      const uuids = items.indexes().map((index) =>
        items.string(index, {
          required: true,
          maxLength: 36,
          pattern: UUID_PATTERN,
          patternMessage: 'must be a uuid',
        }),
      );
      if (!uuids.every((uuid) => uuid !== undefined)) return undefined;
      idTokenUuids = [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];
    } else if (reader.has('id_token_uuids')) return undefined;
    return complete<SendLocalListParameters>(
      {
        update_type: updateType,
        id_token_uuids: idTokenUuids,
        full_on_version_mismatch: fullOnVersionMismatch,
      },
      ['update_type'],
    );
  },

  trigger_message: (reader, { targetType }) => {
    reader.rejectUnknown(['message']);
    const message = reader.enumeration('message', TRIGGERABLE_MESSAGES, { required: true });
    if (message !== undefined && targetType === 'connector' && !CONNECTOR_MESSAGES.includes(message)) {
      reader.issue(
        'message',
        ErrorKey.NotAllowed,
        `must be ${CONNECTOR_MESSAGES.join(' or ')} for a connector`,
      );
    }
    return complete<TriggerMessageParameters>({ message }, ['message']);
  },

  remote_start: (reader) => {
    reader.rejectUnknown(['id_tag', 'charging_profile']);
    const tag = idTag(reader);
    const profile = chargingProfile(
      reader,
      ['tx_profile'],
      'for a remote start (OCPP requires TxProfile)',
      false,
    );
    return complete<RemoteStartParameters>({ id_tag: tag, charging_profile: profile }, ['id_tag']);
  },

  reserve: (reader, { now }) => {
    reader.rejectUnknown(['id_tag', 'expires_at', 'reservation_id']);
    const tag = idTag(reader);
    const expiresAt = reader.dateTime('expires_at', { required: true });
    if (expiresAt !== undefined && now !== null && Date.parse(expiresAt) <= now.getTime()) {
      reader.issue('expires_at', ErrorKey.NotInFuture, 'must lie in the future');
    }
    return complete<ReserveParameters>(
      { id_tag: tag, expires_at: expiresAt, reservation_id: reader.integer('reservation_id') },
      ['id_tag', 'expires_at'],
    );
  },

  cancel_reservation: (reader) => {
    reader.rejectUnknown(['reservation_id']);
    return complete<CancelReservationParameters>(
      { reservation_id: reader.integer('reservation_id', { required: true }) },
      ['reservation_id'],
    );
  },

  set_charging_profile: (reader, { targetType }) => {
    reader.rejectUnknown(['charging_profile']);
    const allowed = targetType === undefined ? undefined : PURPOSES_BY_TARGET[targetType];
    const profile = chargingProfile(reader, allowed, `when target_type is ${targetType}`, true);
    return complete<SetChargingProfileParameters>({ charging_profile: profile }, ['charging_profile']);
  },

  clear_charging_profile: (reader) => {
    reader.rejectUnknown(['id', 'purpose', 'stack_level']);
    return compact<ClearChargingProfileParameters>({
      id: reader.integer('id'),
      purpose: reader.enumeration('purpose', CHARGING_PROFILE_PURPOSES),
      stack_level: reader.integer('stack_level'),
    });
  },
};
