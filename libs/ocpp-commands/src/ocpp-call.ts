import type { ValidationIssue } from '@cpc/contracts';
import type { CommandType } from './command-model.js';
import { type CommandParametersByType, compact } from './command-parameters.js';
import { ocppIdFromCommandUuid } from './generated-ids.js';
import { INT32_MAX } from './field-reader.js';
import type { LocalListUpdate } from './local-list.js';
import { CommandResultError } from './result-errors.js';

/** The OCPP 1.6-J actions commands become (CSMS → charge point). */
export const OCPP16_ACTIONS = [
  'Reset',
  'ClearCache',
  'ChangeAvailability',
  'UnlockConnector',
  'TriggerMessage',
  'UpdateFirmware',
  'GetDiagnostics',
  'GetConfiguration',
  'ChangeConfiguration',
  'RemoteStartTransaction',
  'RemoteStopTransaction',
  'ReserveNow',
  'CancelReservation',
  'SetChargingProfile',
  'ClearChargingProfile',
  'GetLocalListVersion',
  'SendLocalList',
] as const;
export type Ocpp16Action = (typeof OCPP16_ACTIONS)[number];

/** The OCPP 2.0.1 actions commands become (CSMS → charging station). */
export const OCPP201_ACTIONS = [
  'Reset',
  'ClearCache',
  'ChangeAvailability',
  'UnlockConnector',
  'TriggerMessage',
  'UpdateFirmware',
  'GetLog',
  'GetBaseReport',
  'GetVariables',
  'SetVariables',
  'RequestStartTransaction',
  'RequestStopTransaction',
  'ReserveNow',
  'CancelReservation',
  'SetChargingProfile',
  'ClearChargingProfile',
  'GetLocalListVersion',
  'SendLocalList',
] as const;
export type Ocpp201Action = (typeof OCPP201_ACTIONS)[number];

export type OcppAction = Ocpp16Action | Ocpp201Action;

/** What the gateway sends: `client.call(action, payload)`. */
export interface OcppCall<A extends OcppAction = OcppAction> {
  action: A;
  payload: Record<string, unknown>;
}

/** The whole charge point. */
export interface ControllerTarget {
  targetType: 'controller';
}

/** A plug: `connectorId` as the charge point numbers it (1.6: station-wide; 2.0.1: within its EVSE). */
export interface ConnectorTarget {
  targetType: 'connector';
  connectorId: number;
  /** Required on 2.0.1. */
  evseId?: number | null;
}

/** A transaction. `transactionId` as stored: on 1.6 the integer the gateway assigned, as a string. */
export interface ChargingSessionTarget {
  targetType: 'charging_session';
  transactionId: string;
  /** Needed by set_charging_profile (1.6 connectorId of the transaction's connector). */
  connectorId?: number | null;
  /** Needed by set_charging_profile (2.0.1 evseId of the transaction). */
  evseId?: number | null;
}

export type ResolvedTarget = ControllerTarget | ConnectorTarget | ChargingSessionTarget;

export interface OcppCommand {
  type: CommandType;
  /** As stored at creation (validated again here; absent or null = none). */
  parameters?: unknown;
  commandUuid: string;
}

export interface BuildOptions {
  /**
   * "Now" for update_firmware without retrieve_at. Default: the current time. Pass the command's created_at to build
   * a byte-identical payload on every delivery; a past retrieve date means "at once" to a charge point.
   */
  now?: Date;
  /**
   * send_local_list: the list to send, prepared by assets-service at delivery (the stored parameters only say which
   * tokens; the version and, for a differential update, the changes come from what the controller holds).
   */
  localList?: LocalListUpdate;
}

/**
 * The command cannot become an OCPP call for this target or these parameters. The gateway fails the command with
 * `result.error = errorKey` without sending anything.
 */
export class OcppCallBuildError extends Error {
  override readonly name = 'OcppCallBuildError';

  constructor(
    readonly errorKey: typeof CommandResultError.InvalidTarget | typeof CommandResultError.InvalidParameters,
    message: string,
    readonly issues: ValidationIssue[] = [],
  ) {
    super(message);
  }
}

function invalidTarget(message: string): never {
  throw new OcppCallBuildError(CommandResultError.InvalidTarget, message);
}

function positiveInteger(value: number | null | undefined, what: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= INT32_MAX) return value;
  return invalidTarget(`${what} must be a positive integer, got ${String(value)}`);
}

/** What a protocol's builders know about the call being built: the target, generated ids, the time. */
export class CallContext {
  constructor(
    readonly target: ResolvedTarget,
    readonly commandUuid: string,
    readonly now: Date,
    private readonly preparedLocalList?: LocalListUpdate,
  ) {}

  /** The prepared list of a send_local_list (BuildOptions.localList). */
  localList(): LocalListUpdate {
    if (!this.preparedLocalList)
      throw new OcppCallBuildError(CommandResultError.InvalidParameters, 'the local list was not prepared');
    return this.preparedLocalList;
  }

  /** See ocppIdFromCommandUuid. */
  get generatedId(): number {
    return ocppIdFromCommandUuid(this.commandUuid);
  }

  get isController(): boolean {
    return this.target.targetType === 'controller';
  }

  /** The connector id of a connector or a charging session target (≥ 1). */
  connectorId(): number {
    if (this.target.targetType === 'controller')
      return invalidTarget('a controller target has no connector id');
    return positiveInteger(this.target.connectorId, `connectorId of the ${this.target.targetType} target`);
  }

  /** 0 (the whole charge point) for a controller, else the connector id. */
  connectorIdOrZero(): number {
    return this.isController ? 0 : this.connectorId();
  }

  /** The EVSE id of a connector or a charging session target (≥ 1). */
  evseId(): number {
    if (this.target.targetType === 'controller') return invalidTarget('a controller target has no EVSE id');
    return positiveInteger(this.target.evseId, `evseId of the ${this.target.targetType} target`);
  }

  /** 0 (the whole station) for a controller, else the EVSE id. */
  evseIdOrZero(): number {
    return this.isController ? 0 : this.evseId();
  }

  /** Undefined for a controller (field omitted), else the connector id. */
  optionalConnectorId(): number | undefined {
    return this.isController ? undefined : this.connectorId();
  }

  /** Undefined for a controller (field omitted), else the EVSE id. */
  optionalEvseId(): number | undefined {
    return this.isController ? undefined : this.evseId();
  }

  /** The transaction id of a charging session target, as stored (2.0.1: `identifierString`, at most 36 characters). */
  transactionId(): string {
    if (this.target.targetType !== 'charging_session')
      return invalidTarget('the target is not a charging session');
    const id = this.target.transactionId;
    if (typeof id !== 'string' || id === '' || id.length > 36) {
      return invalidTarget(`transactionId must be a string of 1 to 36 characters, got ${String(id)}`);
    }
    return id;
  }

  /** 1.6 transaction ids are integers: the stored string parsed (decimal, within int32). */
  integerTransactionId(): number {
    const id = this.transactionId();
    const parsed = /^-?\d{1,10}$/.test(id) ? Number(id) : Number.NaN;
    if (!Number.isInteger(parsed) || parsed < -INT32_MAX - 1 || parsed > INT32_MAX) {
      return invalidTarget(`transactionId ${id} is not an OCPP 1.6 (integer) transaction id`);
    }
    return parsed;
  }
}

/**
 * One function per command type turning normalized parameters into the calls of one protocol: one call, or several
 * sent one after the other in the given order (1.6 change_configuration: one ChangeConfiguration per key).
 */
export type CallBuilders<A extends OcppAction> = {
  [T in CommandType]: (
    parameters: CommandParametersByType[T],
    context: CallContext,
  ) => OcppCall<A> | OcppCall<A>[];
};

export function ocppCall<A extends OcppAction>(
  action: A,
  payload: Record<string, unknown> = {},
): OcppCall<A> {
  return { action, payload: compact(payload) };
}

/** `2025-01-31T22:00:00Z`: UTC, whole seconds. */
export function utcSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** trigger_message `message` as OCPP names it (snake_case → PascalCase: `meter_values` → MeterValues). */
export function requestedMessageName(message: string): string {
  return message
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
