/**
 * `result.error` keys of a `failed` command. Every key the platform writes is one of these.
 *
 * - `charge_point_offline`: no gateway holds the charge point's connection within the command's validity.
 * - `connection_lost`: the connection dropped while the call was in flight.
 * - `target_deleted`: the controller, plug or session was deleted before delivery.
 * - `invalid_response`: the charge point answered with a payload that is not a valid reply to the call.
 * - `invalid_target`: the resolved target lacks what the protocol needs (e.g. a plug without an EVSE id on 2.0.1, a
 *   non-integer transaction id on 1.6); see OcppCallBuildError.
 * - `invalid_parameters`: stored parameters no longer pass validation (should not happen; a guard against bad data).
 * - `ocpp_*`: the charge point answered with a CALLERROR; the key is `ocpp_` + the snake_case OCPP-J error code. The
 *   1.6 misspellings `FormationViolation` and `OccurenceConstraintViolation` are written as their 2.0.1 forms
 *   (`ocpp_format_violation`, `ocpp_occurrence_constraint_violation`), so one failure reads the same on both
 *   protocols; a code outside the standard lists becomes `ocpp_generic_error`.
 */
export const CommandResultError = {
  ChargePointOffline: 'charge_point_offline',
  ConnectionLost: 'connection_lost',
  TargetDeleted: 'target_deleted',
  InvalidResponse: 'invalid_response',
  InvalidTarget: 'invalid_target',
  InvalidParameters: 'invalid_parameters',
  OcppFormatViolation: 'ocpp_format_violation',
  OcppGenericError: 'ocpp_generic_error',
  OcppInternalError: 'ocpp_internal_error',
  OcppMessageTypeNotSupported: 'ocpp_message_type_not_supported',
  OcppNotImplemented: 'ocpp_not_implemented',
  OcppNotSupported: 'ocpp_not_supported',
  OcppOccurrenceConstraintViolation: 'ocpp_occurrence_constraint_violation',
  OcppPropertyConstraintViolation: 'ocpp_property_constraint_violation',
  OcppProtocolError: 'ocpp_protocol_error',
  OcppRpcFrameworkError: 'ocpp_rpc_framework_error',
  OcppSecurityError: 'ocpp_security_error',
  OcppTypeConstraintViolation: 'ocpp_type_constraint_violation',
} as const;
export type CommandResultError = (typeof CommandResultError)[keyof typeof CommandResultError];

export const COMMAND_RESULT_ERRORS: readonly CommandResultError[] = Object.values(CommandResultError);

/** OCPP-J CALLERROR codes of 1.6 (section 4.2.3) and 2.0.1 (RPC framework, ErrorCode) → result.error. */
const CALL_ERROR_KEYS: Readonly<Record<string, CommandResultError>> = {
  FormatViolation: CommandResultError.OcppFormatViolation,
  FormationViolation: CommandResultError.OcppFormatViolation,
  GenericError: CommandResultError.OcppGenericError,
  InternalError: CommandResultError.OcppInternalError,
  MessageTypeNotSupported: CommandResultError.OcppMessageTypeNotSupported,
  NotImplemented: CommandResultError.OcppNotImplemented,
  NotSupported: CommandResultError.OcppNotSupported,
  OccurrenceConstraintViolation: CommandResultError.OcppOccurrenceConstraintViolation,
  OccurenceConstraintViolation: CommandResultError.OcppOccurrenceConstraintViolation,
  PropertyConstraintViolation: CommandResultError.OcppPropertyConstraintViolation,
  ProtocolError: CommandResultError.OcppProtocolError,
  RpcFrameworkError: CommandResultError.OcppRpcFrameworkError,
  SecurityError: CommandResultError.OcppSecurityError,
  TypeConstraintViolation: CommandResultError.OcppTypeConstraintViolation,
};

/** The `result.error` of a command the charge point answered with CALLERROR `code` (e.g. `NotImplemented`). */
export function classifyCallError(code: string): CommandResultError {
  return Object.hasOwn(CALL_ERROR_KEYS, code) ? CALL_ERROR_KEYS[code] : CommandResultError.OcppGenericError;
}
