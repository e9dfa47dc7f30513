/**
 * What the fault test asks the platform to do, and how a charge point recognises each command again.
 *
 * Every command carries a number of its own (the nonce, 1, 2, 3, ...) in a field the OCPP payload repeats on both
 * protocol versions: an id tag `F<nonce>`, a URL ending in `F<nonce>`, or a reservation / charging-profile id equal to
 * the nonce. A charge point that records every call it gets can so tell exactly which command a call belongs to, and a
 * command delivered twice shows up as its nonce arriving twice, whatever the platform did in between (two commands
 * from one retried POST included).
 */

export const FAULT_COMMAND_TYPES = [
  'remote_start',
  'reserve',
  'update_firmware',
  'request_diagnostics',
  'set_charging_profile',
  'cancel_reservation',
  'clear_charging_profile',
] as const;
export type FaultCommandType = (typeof FAULT_COMMAND_TYPES)[number];

/** A charge point as the plan addresses it: the controller and its one plug. */
export interface PlanTarget {
  controllerUuid: string;
  plugUuid: string;
}

export interface PlannedCommand {
  nonce: number;
  type: FaultCommandType;
  /** The controller whose charge point must receive it. */
  controllerUuid: string;
  /** Sent with every attempt of this POST, so a retry never creates a second command. */
  idempotencyKey: string;
  body: {
    type: FaultCommandType;
    target_type: 'controller' | 'connector';
    target_uuid: string;
    parameters: Record<string, unknown>;
    valid_for_seconds: number;
  };
}

export interface PlanOptions {
  /** Tells runs apart in idempotency keys. */
  runId: string;
  validForSeconds: number;
  /** Reference time for reservation expiry. */
  now: Date;
}

const TARGET_TYPE: Readonly<Record<FaultCommandType, 'controller' | 'connector'>> = {
  remote_start: 'connector',
  reserve: 'connector',
  update_firmware: 'controller',
  request_diagnostics: 'controller',
  set_charging_profile: 'connector',
  cancel_reservation: 'controller',
  clear_charging_profile: 'connector',
};

export function nonceTag(nonce: number): string {
  return `F${nonce}`;
}

function parametersFor(type: FaultCommandType, nonce: number, now: Date): Record<string, unknown> {
  const tag = nonceTag(nonce);
  switch (type) {
    case 'remote_start':
      return { id_tag: tag };
    case 'reserve': {
      const expiresAt = new Date(now.getTime() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      return { id_tag: tag, expires_at: expiresAt, reservation_id: nonce };
    }
    case 'update_firmware':
      return { location: `https://firmware.faults.example/${tag}` };
    case 'request_diagnostics':
      return { location: `https://diagnostics.faults.example/${tag}` };
    case 'set_charging_profile':
      return {
        charging_profile: {
          id: nonce,
          stack_level: 0,
          purpose: 'tx_default_profile',
          kind: 'relative',
          schedule: { charging_rate_unit: 'A', periods: [{ start_period: 0, limit: 16 }] },
        },
      };
    case 'cancel_reservation':
      return { reservation_id: nonce };
    case 'clear_charging_profile':
      return { id: nonce };
  }
}

/** Command number `nonce` (from 1): types in turn, charge points in turn, so every charge point gets every type. */
export function planCommand(
  nonce: number,
  targets: readonly PlanTarget[],
  options: PlanOptions,
): PlannedCommand {
  if (!Number.isInteger(nonce) || nonce < 1)
    throw new RangeError(`nonce must be a positive integer: ${nonce}`);
  if (targets.length === 0) throw new RangeError('no charge points to address');
  const index = nonce - 1;
  const type = FAULT_COMMAND_TYPES[index % FAULT_COMMAND_TYPES.length];
  // Shifted by one after each round of types, so the pairs of type and charge point vary even when the counts match.
  const round = Math.floor(index / FAULT_COMMAND_TYPES.length);
  const target = targets[(index + round) % targets.length];
  const targetType = TARGET_TYPE[type];
  return {
    nonce,
    type,
    controllerUuid: target.controllerUuid,
    idempotencyKey: `faults-${options.runId}-${nonce}`,
    body: {
      type,
      target_type: targetType,
      target_uuid: targetType === 'controller' ? target.controllerUuid : target.plugUuid,
      parameters: parametersFor(type, nonce, options.now),
      valid_for_seconds: options.validForSeconds,
    },
  };
}

const TAG_PATTERN = /(?:^|\/)F(\d+)$/;

function nonceFromTag(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TAG_PATTERN.exec(value);
  return match ? Number(match[1]) : undefined;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * The nonce of the command an OCPP call (1.6 or 2.0.1) was made for; undefined for calls the plan never causes
 * (the gateway's own, or a type outside FAULT_COMMAND_TYPES).
 */
export function nonceOfCall(action: string, payload: unknown): number | undefined {
  switch (action) {
    case 'RemoteStartTransaction':
      return nonceFromTag(field(payload, 'idTag'));
    case 'RequestStartTransaction':
      return nonceFromTag(field(payload, 'idToken', 'idToken'));
    case 'ReserveNow':
      return nonceFromTag(field(payload, 'idTag')) ?? nonceFromTag(field(payload, 'idToken', 'idToken'));
    case 'UpdateFirmware':
      return nonceFromTag(field(payload, 'location')) ?? nonceFromTag(field(payload, 'firmware', 'location'));
    case 'GetDiagnostics':
      return nonceFromTag(field(payload, 'location'));
    case 'GetLog':
      return nonceFromTag(field(payload, 'log', 'remoteLocation'));
    case 'SetChargingProfile':
      return (
        positiveInteger(field(payload, 'csChargingProfiles', 'chargingProfileId')) ??
        positiveInteger(field(payload, 'chargingProfile', 'id'))
      );
    case 'CancelReservation':
      return positiveInteger(field(payload, 'reservationId'));
    case 'ClearChargingProfile':
      return positiveInteger(field(payload, 'id')) ?? positiveInteger(field(payload, 'chargingProfileId'));
    default:
      return undefined;
  }
}
