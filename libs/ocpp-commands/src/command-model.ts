import type { OcppProtocol } from '@cpc/contracts';

/**
 * The platform command types: the spec's fifteen (docs/spec/core-api.md, Command.type) and the extensions of
 * docs/spec/ocpp-mapping.md; the mapping is docs/spec/ocpp-mapping.md.
 */
export const COMMAND_TYPES = [
  'soft_reset',
  'hard_reset',
  'clear_cache',
  'change_availability',
  'unlock',
  'identify',
  'update_firmware',
  'request_diagnostics',
  'refresh_configuration',
  'remote_start',
  'remote_stop',
  'reserve',
  'cancel_reservation',
  'set_charging_profile',
  'clear_charging_profile',
  'change_configuration',
  'trigger_message',
  'get_local_list_version',
  'send_local_list',
] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

export const TARGET_TYPES = ['controller', 'connector', 'charging_session'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export const COMMAND_STATUSES = ['pending', 'sent', 'accepted', 'rejected', 'timeout', 'failed'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** A command never leaves these states; `result` and `completed_at` are set exactly when one is reached. */
export const TERMINAL_COMMAND_STATUSES = [
  'accepted',
  'rejected',
  'timeout',
  'failed',
] as const satisfies readonly CommandStatus[];
export type TerminalCommandStatus = (typeof TERMINAL_COMMAND_STATUSES)[number];

export const OCPP_PROTOCOLS = ['ocpp1.6', 'ocpp2.0.1'] as const satisfies readonly OcppProtocol[];

/** Which target types each command type may address (the "targets" column of the mapping table). */
export const COMMAND_TARGET_TYPES: Readonly<Record<CommandType, readonly TargetType[]>> = {
  soft_reset: ['controller'],
  hard_reset: ['controller'],
  clear_cache: ['controller'],
  change_availability: ['controller', 'connector'],
  unlock: ['connector'],
  identify: ['controller'],
  update_firmware: ['controller'],
  request_diagnostics: ['controller'],
  refresh_configuration: ['controller'],
  remote_start: ['connector', 'controller'],
  remote_stop: ['charging_session'],
  reserve: ['connector', 'controller'],
  cancel_reservation: ['controller'],
  set_charging_profile: ['controller', 'connector', 'charging_session'],
  clear_charging_profile: ['controller', 'connector'],
  change_configuration: ['controller'],
  trigger_message: ['controller', 'connector'],
  get_local_list_version: ['controller'],
  send_local_list: ['controller'],
};

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

export const isCommandType = (value: unknown): value is CommandType => isOneOf(COMMAND_TYPES, value);
export const isTargetType = (value: unknown): value is TargetType => isOneOf(TARGET_TYPES, value);
export const isCommandStatus = (value: unknown): value is CommandStatus => isOneOf(COMMAND_STATUSES, value);
export const isTerminalCommandStatus = (value: unknown): value is TerminalCommandStatus =>
  isOneOf(TERMINAL_COMMAND_STATUSES, value);
export const isOcppProtocol = (value: unknown): value is OcppProtocol => isOneOf(OCPP_PROTOCOLS, value);

export function isTargetTypeAllowed(type: CommandType, targetType: TargetType): boolean {
  return COMMAND_TARGET_TYPES[type].includes(targetType);
}
