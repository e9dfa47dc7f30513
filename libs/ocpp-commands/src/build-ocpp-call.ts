import type { OcppProtocol } from '@cpc/contracts';
import type { CommandType } from './command-model.js';
import { type CommandOf, parseRequest } from './command-request.js';
import {
  type BuildOptions,
  type CallBuilders,
  CallContext,
  type OcppAction,
  type OcppCall,
  OcppCallBuildError,
  type OcppCommand,
  type ResolvedTarget,
} from './ocpp-call.js';
import { OCPP16_CALLS } from './ocpp16-calls.js';
import { OCPP201_CALLS } from './ocpp201-calls.js';
import { CommandResultError } from './result-errors.js';
import { CommandValidationErrorKey } from './validation-error-keys.js';

const CALLS_BY_PROTOCOL: Readonly<Record<OcppProtocol, CallBuilders<OcppAction>>> = {
  'ocpp1.6': OCPP16_CALLS,
  'ocpp2.0.1': OCPP201_CALLS,
};

function dispatch<T extends CommandType>(
  builders: CallBuilders<OcppAction>,
  command: CommandOf<T>,
  context: CallContext,
) {
  return builders[command.type](command.parameters, context);
}

/**
 * The OCPP call (action + payload) of a command on one protocol. The stored parameters are validated and normalized
 * again (time-relative rules excepted: a reservation that expired meanwhile is still sent, and refused by the charge
 * point); a redelivery of the same command builds the same payload (generated ids come from the command uuid, see
 * ocppIdFromCommandUuid; see BuildOptions.now for the one time-dependent default).
 *
 * @throws OcppCallBuildError `invalid_target` when the target does not fit the type or lacks an id the protocol needs,
 *   `invalid_parameters` when the stored parameters do not validate.
 */
export function buildOcppCall(
  protocol: OcppProtocol,
  command: OcppCommand,
  target: ResolvedTarget,
  options: BuildOptions = {},
): OcppCall {
  const calls = buildOcppCalls(protocol, command, target, options);
  if (calls.length !== 1)
    throw new TypeError(`${command.type} becomes ${calls.length} calls: use buildOcppCalls`);
  return calls[0];
}

/**
 * The OCPP calls of a command, to be sent one after the other in this order (one for every type but 1.6
 * change_configuration, which makes one ChangeConfiguration per key). Same rules and errors as buildOcppCall.
 */
export function buildOcppCalls(
  protocol: OcppProtocol,
  command: OcppCommand,
  target: ResolvedTarget,
  options: BuildOptions = {},
): OcppCall[] {
  const builders = Object.hasOwn(CALLS_BY_PROTOCOL, protocol) ? CALLS_BY_PROTOCOL[protocol] : undefined;
  if (!builders) throw new TypeError(`unknown OCPP protocol ${String(protocol)}`);
  const parsed = parseRequest(
    { type: command.type, target_type: target.targetType, parameters: command.parameters },
    null,
  );
  if (!parsed.ok) {
    const targetIssue = parsed.issues.some(
      (issue) =>
        issue.errorKey === CommandValidationErrorKey.InvalidTargetType || issue.parameter === 'target_type',
    );
    throw new OcppCallBuildError(
      targetIssue ? CommandResultError.InvalidTarget : CommandResultError.InvalidParameters,
      parsed.issues.map((issue) => issue.message).join('; '),
      parsed.issues,
    );
  }
  const calls = dispatch(
    builders,
    parsed.command,
    new CallContext(target, command.commandUuid, options.now ?? new Date(), options.localList),
  );
  return Array.isArray(calls) ? calls : [calls];
}
