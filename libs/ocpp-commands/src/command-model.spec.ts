import {
  COMMAND_STATUSES,
  COMMAND_TARGET_TYPES,
  COMMAND_TYPES,
  isCommandStatus,
  isCommandType,
  isOcppProtocol,
  isTargetType,
  isTargetTypeAllowed,
  isTerminalCommandStatus,
  TARGET_TYPES,
  TERMINAL_COMMAND_STATUSES,
} from './command-model.js';

describe('command model', () => {
  it('lists the 15 command types of the spec first, then the extensions; target types and statuses', () => {
    expect(COMMAND_TYPES.slice(0, 15)).toEqual([
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
    ]);
    expect(COMMAND_TYPES).toEqual(
      expect.arrayContaining([
        'change_configuration',
        'trigger_message',
        'get_local_list_version',
        'send_local_list',
      ]),
    );
    expect(Object.keys(COMMAND_TARGET_TYPES).sort()).toEqual([...COMMAND_TYPES].sort());
    expect(TARGET_TYPES).toEqual(['controller', 'connector', 'charging_session']);
    expect(COMMAND_STATUSES).toEqual(['pending', 'sent', 'accepted', 'rejected', 'timeout', 'failed']);
    expect(TERMINAL_COMMAND_STATUSES).toEqual(['accepted', 'rejected', 'timeout', 'failed']);
  });

  it('allows the target types of the mapping table', () => {
    const table = Object.fromEntries(
      COMMAND_TYPES.map((type) => [type, [...COMMAND_TARGET_TYPES[type]].sort()]),
    );
    expect(table).toEqual({
      soft_reset: ['controller'],
      hard_reset: ['controller'],
      clear_cache: ['controller'],
      change_availability: ['connector', 'controller'],
      unlock: ['connector'],
      identify: ['controller'],
      update_firmware: ['controller'],
      request_diagnostics: ['controller'],
      refresh_configuration: ['controller'],
      remote_start: ['connector', 'controller'],
      remote_stop: ['charging_session'],
      reserve: ['connector', 'controller'],
      cancel_reservation: ['controller'],
      set_charging_profile: ['charging_session', 'connector', 'controller'],
      clear_charging_profile: ['connector', 'controller'],
      change_configuration: ['controller'],
      trigger_message: ['connector', 'controller'],
      get_local_list_version: ['controller'],
      send_local_list: ['controller'],
    });
    expect(isTargetTypeAllowed('unlock', 'connector')).toBe(true);
    expect(isTargetTypeAllowed('unlock', 'controller')).toBe(false);
  });

  it('guards values', () => {
    expect(isCommandType('remote_start')).toBe(true);
    expect(isCommandType('toString')).toBe(false);
    expect(isTargetType('connector')).toBe(true);
    expect(isTargetType(1)).toBe(false);
    expect(isCommandStatus('sent')).toBe(true);
    expect(isTerminalCommandStatus('sent')).toBe(false);
    expect(isTerminalCommandStatus('timeout')).toBe(true);
    expect(isOcppProtocol('ocpp2.0.1')).toBe(true);
    expect(isOcppProtocol('ocpp2.1')).toBe(false);
  });
});
