export * from './command-model.js';
export * from './validation-error-keys.js';
export { ALLOWED_URI_SCHEMES, INT32_MAX } from './field-reader.js';
export {
  AVAILABILITIES,
  CHARGING_PROFILE_KINDS,
  CHARGING_PROFILE_PURPOSES,
  CHARGING_RATE_UNITS,
  CONFIGURATION_KEY,
  CONFIGURATION_KEY_MAX_LENGTH,
  ID_TAG_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  MAX_CONFIGURATION_KEYS,
  MAX_SCHEDULE_PERIODS,
  PRINTABLE_ASCII,
  RECURRENCY_KINDS,
  type Availability,
  type CancelReservationParameters,
  type ChangeAvailabilityParameters,
  type ChargingProfileKind,
  type ChargingProfileParameters,
  type ChargingProfilePurpose,
  type ChargingRateUnit,
  type ChargingScheduleParameters,
  type ChargingSchedulePeriodParameters,
  type ClearChargingProfileParameters,
  type CommandParametersByType,
  type EmptyParameters,
  type RecurrencyKind,
  type RefreshConfigurationParameters,
  type RemoteStartParameters,
  type RequestDiagnosticsParameters,
  type ReserveParameters,
  type SetChargingProfileParameters,
  type UpdateFirmwareParameters,
} from './command-parameters.js';
export {
  parseCommandRequest,
  validateCommandRequest,
  type CommandOf,
  type CommandRequestInput,
  type CommandRequestParseResult,
  type ValidCommandRequest,
  type ValidationOptions,
} from './command-request.js';
export { ocppIdFromCommandUuid, reservationIdFor } from './generated-ids.js';
export {
  OCPP16_ACTIONS,
  OCPP201_ACTIONS,
  OcppCallBuildError,
  type BuildOptions,
  type ChargingSessionTarget,
  type ConnectorTarget,
  type ControllerTarget,
  type Ocpp16Action,
  type Ocpp201Action,
  type OcppAction,
  type OcppCall,
  type OcppCommand,
  type ResolvedTarget,
} from './ocpp-call.js';
export { buildOcppCall } from './build-ocpp-call.js';
export {
  classifyOcppResponse,
  RESULT_STATUS_STAND_IN,
  type OcppAnswerClassification,
} from './classify-ocpp-response.js';
export { classifyCallError, COMMAND_RESULT_ERRORS, CommandResultError } from './result-errors.js';
