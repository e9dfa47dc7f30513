import { type ChargingProfileParameters, compact, type KeySetting } from './command-parameters.js';
import { sendLocalListCall } from './local-list.js';
import { reservationIdFor } from './generated-ids.js';
import { commonProfileFields, commonScheduleFields } from './charging-profile-fields.js';
import {
  type CallBuilders,
  ocppCall,
  type Ocpp16Action,
  OcppCallBuildError,
  requestedMessageName,
  utcSeconds,
} from './ocpp-call.js';
import { CommandResultError } from './result-errors.js';

const PURPOSE = {
  charge_point_max_profile: 'ChargePointMaxProfile',
  tx_default_profile: 'TxDefaultProfile',
  tx_profile: 'TxProfile',
} as const;

const call = (action: Ocpp16Action, payload?: Record<string, unknown>) => ocppCall(action, payload);

/** 1.6 `ChargingProfile` (RemoteStartTransaction.chargingProfile, SetChargingProfile.csChargingProfiles). */
function chargingProfile(
  profile: ChargingProfileParameters,
  transactionId?: number,
): Record<string, unknown> {
  return compact({
    chargingProfileId: profile.id,
    transactionId,
    ...commonProfileFields(profile, PURPOSE),
    chargingSchedule: commonScheduleFields(profile.schedule),
  });
}

function later(first: string, second: string | undefined): string {
  return second !== undefined && Date.parse(second) > Date.parse(first) ? second : first;
}

/** OCPP 1.6-J payloads (checked against ocpp-rpc's 1.6 request schemas in the tests). */
export const OCPP16_CALLS: CallBuilders<Ocpp16Action> = {
  soft_reset: () => call('Reset', { type: 'Soft' }),
  hard_reset: () => call('Reset', { type: 'Hard' }),
  clear_cache: () => call('ClearCache'),
  get_local_list_version: () => call('GetLocalListVersion'),
  send_local_list: (_parameters, context) => sendLocalListCall('ocpp1.6', context.localList()).call,
  change_availability: (parameters, context) =>
    call('ChangeAvailability', {
      connectorId: context.connectorIdOrZero(),
      type: parameters.availability === 'operative' ? 'Operative' : 'Inoperative',
    }),
  unlock: (_parameters, context) => call('UnlockConnector', { connectorId: context.connectorId() }),
  identify: () => call('TriggerMessage', { requestedMessage: 'BootNotification' }),
  // 1.6 cannot schedule the installation: it installs after downloading, so the download waits for install_at.
  update_firmware: (parameters, context) =>
    call('UpdateFirmware', {
      location: parameters.location,
      retrieveDate: later(parameters.retrieve_at ?? utcSeconds(context.now), parameters.install_at),
      retries: parameters.retries,
      retryInterval: parameters.retry_interval,
    }),
  request_diagnostics: (parameters) =>
    call('GetDiagnostics', {
      location: parameters.location,
      retries: parameters.retries,
      retryInterval: parameters.retry_interval,
      startTime: parameters.start_time,
      stopTime: parameters.stop_time,
    }),
  refresh_configuration: (parameters) => call('GetConfiguration', { key: parameters.keys }),
  change_configuration: ({ settings }) => {
    if (!settings.every((setting): setting is KeySetting => 'key' in setting)) {
      throw new OcppCallBuildError(
        CommandResultError.InvalidParameters,
        'a 1.6 charge point changes keys: settings must be {key, value}',
      );
    }
    return settings.map(({ key, value }) => call('ChangeConfiguration', { key, value }));
  },
  trigger_message: ({ message }, context) =>
    call('TriggerMessage', {
      requestedMessage: requestedMessageName(message),
      connectorId: context.optionalConnectorId(),
    }),
  // A controller target leaves connectorId out: the charge point picks the connector.
  remote_start: (parameters, context) =>
    call('RemoteStartTransaction', {
      connectorId: context.optionalConnectorId(),
      idTag: parameters.id_tag,
      chargingProfile: parameters.charging_profile && chargingProfile(parameters.charging_profile),
    }),
  remote_stop: (_parameters, context) =>
    call('RemoteStopTransaction', { transactionId: context.integerTransactionId() }),
  // connectorId 0 reserves the charge point as a whole (needs ReserveConnectorZeroSupported on the charge point).
  reserve: (parameters, context) =>
    call('ReserveNow', {
      connectorId: context.connectorIdOrZero(),
      expiryDate: parameters.expires_at,
      idTag: parameters.id_tag,
      reservationId: reservationIdFor(parameters, context.commandUuid),
    }),
  cancel_reservation: (parameters) => call('CancelReservation', { reservationId: parameters.reservation_id }),
  set_charging_profile: (parameters, context) =>
    call('SetChargingProfile', {
      connectorId: context.connectorIdOrZero(),
      csChargingProfiles: chargingProfile(
        parameters.charging_profile,
        context.target.targetType === 'charging_session' ? context.integerTransactionId() : undefined,
      ),
    }),
  // A controller target omits connectorId: the criteria then match profiles on every connector, 0 included.
  clear_charging_profile: (parameters, context) =>
    call('ClearChargingProfile', {
      id: parameters.id,
      connectorId: context.optionalConnectorId(),
      chargingProfilePurpose: parameters.purpose && PURPOSE[parameters.purpose],
      stackLevel: parameters.stack_level,
    }),
};
