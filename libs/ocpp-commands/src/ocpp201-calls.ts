import {
  type ChargingProfileParameters,
  compact,
  type TriggerableMessage,
  type VariableSetting,
} from './command-parameters.js';
import { sendLocalListCall } from './local-list.js';
import { reservationIdFor } from './generated-ids.js';
import { commonProfileFields, commonScheduleFields } from './charging-profile-fields.js';
import {
  type CallBuilders,
  ocppCall,
  type Ocpp201Action,
  OcppCallBuildError,
  requestedMessageName,
  utcSeconds,
} from './ocpp-call.js';
import { CommandResultError } from './result-errors.js';

const PURPOSE = {
  charge_point_max_profile: 'ChargingStationMaxProfile',
  tx_default_profile: 'TxDefaultProfile',
  tx_profile: 'TxProfile',
} as const;

const call = (action: Ocpp201Action, payload?: Record<string, unknown>) => ocppCall(action, payload);

/**
 * 2.0.1 `ChargingProfileType`. The platform has one schedule per profile; its required schedule `id` is the profile
 * id (unique per charge point as long as profile ids are, and stable when a profile is replaced).
 */
function chargingProfile(
  profile: ChargingProfileParameters,
  transactionId?: string,
): Record<string, unknown> {
  return compact({
    id: profile.id,
    ...commonProfileFields(profile, PURPOSE),
    transactionId,
    chargingSchedule: [{ id: profile.id, ...commonScheduleFields(profile.schedule) }],
  });
}

/** Remote starts and reservations are made by the CSMS, so their tokens are of type Central. */
const centralIdToken = (idTag: string) => ({ idToken: idTag, type: 'Central' });

/**
 * refresh_configuration keys on 2.0.1: `Component.Variable` (split at the first dot) names a variable of a
 * station-level component, read with GetVariables. A key without a dot (a 1.6-style key) names no component, so when
 * any key lacks one the whole device model is reported instead (GetBaseReport FullInventory): a refresh is a read,
 * and reading more than asked beats failing.
 */
function componentVariables(
  keys: string[],
): { component: { name: string }; variable: { name: string } }[] | undefined {
  const pairs = keys.map((key) => {
    const dot = key.indexOf('.');
    return dot > 0 && dot < key.length - 1
      ? { component: key.slice(0, dot), variable: key.slice(dot + 1) }
      : undefined;
  });
  if (!pairs.every((pair) => pair !== undefined)) return undefined;
  return pairs.map((pair) => ({ component: { name: pair.component }, variable: { name: pair.variable } }));
}

/** trigger_message `message` → 2.0.1 `requestedMessage`: as 1.6 names it, but diagnostics are a log here. */
const requestedMessage = (message: TriggerableMessage) =>
  message === 'diagnostics_status_notification' ? 'LogStatusNotification' : requestedMessageName(message);

/** OCPP 2.0.1 payloads (checked against ocpp-rpc's 2.0.1 request schemas in the tests). */
export const OCPP201_CALLS: CallBuilders<Ocpp201Action> = {
  soft_reset: () => call('Reset', { type: 'OnIdle' }),
  hard_reset: () => call('Reset', { type: 'Immediate' }),
  clear_cache: () => call('ClearCache'),
  get_local_list_version: () => call('GetLocalListVersion'),
  send_local_list: (_parameters, context) => sendLocalListCall('ocpp2.0.1', context.localList()).call,
  change_availability: (parameters, context) =>
    call('ChangeAvailability', {
      operationalStatus: parameters.availability === 'operative' ? 'Operative' : 'Inoperative',
      evse: context.isController ? undefined : { id: context.evseId(), connectorId: context.connectorId() },
    }),
  unlock: (_parameters, context) =>
    call('UnlockConnector', { evseId: context.evseId(), connectorId: context.connectorId() }),
  // Note: 2.0.1 (F06.FR.17) lets a station whose boot was already accepted answer Rejected to this trigger.
  identify: () => call('TriggerMessage', { requestedMessage: 'BootNotification' }),
  update_firmware: (parameters, context) =>
    call('UpdateFirmware', {
      requestId: context.generatedId,
      retries: parameters.retries,
      retryInterval: parameters.retry_interval,
      firmware: compact({
        location: parameters.location,
        retrieveDateTime: parameters.retrieve_at ?? utcSeconds(context.now),
        installDateTime: parameters.install_at,
      }),
    }),
  request_diagnostics: (parameters, context) =>
    call('GetLog', {
      logType: 'DiagnosticsLog',
      requestId: context.generatedId,
      retries: parameters.retries,
      retryInterval: parameters.retry_interval,
      log: compact({
        remoteLocation: parameters.location,
        oldestTimestamp: parameters.start_time,
        latestTimestamp: parameters.stop_time,
      }),
    }),
  change_configuration: ({ settings }) => {
    if (!settings.every((setting): setting is VariableSetting => 'component' in setting)) {
      throw new OcppCallBuildError(
        CommandResultError.InvalidParameters,
        'a 2.0.1 charging station sets variables: settings must be {component, variable, value, …}',
      );
    }
    return call('SetVariables', {
      setVariableData: settings.map((setting) =>
        compact({
          attributeType: setting.attribute_type,
          attributeValue: setting.value,
          component: compact({
            name: setting.component,
            instance: setting.component_instance,
            evse:
              setting.evse_id === undefined
                ? undefined
                : compact({ id: setting.evse_id, connectorId: setting.connector_id }),
          }),
          variable: compact({ name: setting.variable, instance: setting.variable_instance }),
        }),
      ),
    });
  },
  trigger_message: ({ message }, context) =>
    call('TriggerMessage', {
      requestedMessage: requestedMessage(message),
      evse: context.isController ? undefined : { id: context.evseId(), connectorId: context.connectorId() },
    }),
  refresh_configuration: (parameters, context) => {
    const variables = parameters.keys && componentVariables(parameters.keys);
    return variables
      ? call('GetVariables', { getVariableData: variables })
      : call('GetBaseReport', { requestId: context.generatedId, reportBase: 'FullInventory' });
  },
  // A controller target leaves evseId out: the station picks the EVSE.
  remote_start: (parameters, context) =>
    call('RequestStartTransaction', {
      evseId: context.optionalEvseId(),
      idToken: centralIdToken(parameters.id_tag),
      remoteStartId: context.generatedId,
      chargingProfile: parameters.charging_profile && chargingProfile(parameters.charging_profile),
    }),
  remote_stop: (_parameters, context) =>
    call('RequestStopTransaction', { transactionId: context.transactionId() }),
  // Without evseId the reservation holds any EVSE of the station.
  reserve: (parameters, context) =>
    call('ReserveNow', {
      id: reservationIdFor(parameters, context.commandUuid),
      expiryDateTime: parameters.expires_at,
      idToken: centralIdToken(parameters.id_tag),
      evseId: context.optionalEvseId(),
    }),
  cancel_reservation: (parameters) => call('CancelReservation', { reservationId: parameters.reservation_id }),
  set_charging_profile: (parameters, context) =>
    call('SetChargingProfile', {
      evseId: context.evseIdOrZero(),
      chargingProfile: chargingProfile(
        parameters.charging_profile,
        context.target.targetType === 'charging_session' ? context.transactionId() : undefined,
      ),
    }),
  clear_charging_profile: (parameters, context) => {
    const criteria = compact({
      evseId: context.optionalEvseId(),
      chargingProfilePurpose: parameters.purpose && PURPOSE[parameters.purpose],
      stackLevel: parameters.stack_level,
    });
    return call('ClearChargingProfile', {
      chargingProfileId: parameters.id,
      chargingProfileCriteria: Object.keys(criteria).length > 0 ? criteria : undefined,
    });
  },
};
