import type { OcppProtocol } from '@cpc/contracts';
import { buildOcppCall, buildOcppCalls } from './build-ocpp-call.js';
import {
  COMMAND_TARGET_TYPES,
  COMMAND_TYPES,
  type CommandType,
  OCPP_PROTOCOLS,
  type TargetType,
} from './command-model.js';
import { ocppIdFromCommandUuid, reservationIdFor } from './generated-ids.js';
import {
  OCPP16_ACTIONS,
  OCPP201_ACTIONS,
  OcppCallBuildError,
  type OcppCall,
  type ResolvedTarget,
} from './ocpp-call.js';
import { schemaViolation } from './testing/ocpp-schemas.js';

const COMMAND_UUID = '5f0c9b0e-2a57-4d43-9a5e-0c1a3f6a7b21';
/** ocppIdFromCommandUuid(COMMAND_UUID), pinned: a changed derivation would break redelivery across versions. */
const GEN = 85940882;
const NOW = new Date('2030-05-01T08:00:00.000Z');

const TARGETS: Record<TargetType, ResolvedTarget> = {
  controller: { targetType: 'controller' },
  connector: { targetType: 'connector', connectorId: 2, evseId: 1 },
  charging_session: { targetType: 'charging_session', transactionId: '4711', connectorId: 2, evseId: 1 },
};

const FIRMWARE_URL = 'https://firmware.example.com/cp/v2.1.0.bin';
const UPLOAD_URL = 'ftp://user:secret@logs.example.com/uploads/';

const absoluteMaxProfile = {
  id: 10,
  stack_level: 0,
  purpose: 'charge_point_max_profile',
  kind: 'absolute',
  schedule: {
    charging_rate_unit: 'W',
    start_schedule: '2030-05-01T00:00:00Z',
    periods: [
      { start_period: 0, limit: 22000 },
      { start_period: 3600, limit: 11000.5 },
    ],
  },
};
const recurringDefaultProfile = {
  id: 11,
  stack_level: 2,
  purpose: 'tx_default_profile',
  kind: 'recurring',
  recurrency_kind: 'daily',
  valid_from: '2030-05-01T00:00:00Z',
  valid_to: '2031-05-01T00:00:00+02:00',
  schedule: {
    charging_rate_unit: 'A',
    start_schedule: '2030-05-01T22:00:00Z',
    duration: 86400,
    min_charging_rate: 6.1,
    periods: [
      { start_period: 0, limit: 16, number_phases: 3 },
      { start_period: 28800, limit: 32.3, number_phases: 1 },
    ],
  },
};
const relativeTxProfile = {
  id: 12,
  stack_level: 1,
  purpose: 'tx_profile',
  kind: 'relative',
  schedule: { charging_rate_unit: 'A', periods: [{ start_period: 0, limit: 10 }] },
};

const ocpp16AbsoluteMaxProfile = {
  chargingProfileId: 10,
  stackLevel: 0,
  chargingProfilePurpose: 'ChargePointMaxProfile',
  chargingProfileKind: 'Absolute',
  chargingSchedule: {
    startSchedule: '2030-05-01T00:00:00Z',
    chargingRateUnit: 'W',
    chargingSchedulePeriod: [
      { startPeriod: 0, limit: 22000 },
      { startPeriod: 3600, limit: 11000.5 },
    ],
  },
};
const ocpp16RecurringDefaultProfile = {
  chargingProfileId: 11,
  stackLevel: 2,
  chargingProfilePurpose: 'TxDefaultProfile',
  chargingProfileKind: 'Recurring',
  recurrencyKind: 'Daily',
  validFrom: '2030-05-01T00:00:00Z',
  validTo: '2031-04-30T22:00:00Z',
  chargingSchedule: {
    duration: 86400,
    startSchedule: '2030-05-01T22:00:00Z',
    chargingRateUnit: 'A',
    minChargingRate: 6.1,
    chargingSchedulePeriod: [
      { startPeriod: 0, limit: 16, numberPhases: 3 },
      { startPeriod: 28800, limit: 32.3, numberPhases: 1 },
    ],
  },
};
const ocpp16RelativeTxProfile = {
  chargingProfileId: 12,
  stackLevel: 1,
  chargingProfilePurpose: 'TxProfile',
  chargingProfileKind: 'Relative',
  chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }] },
};

interface MappingCase {
  name: string;
  type: CommandType;
  target: TargetType;
  parameters?: Record<string, unknown>;
  'ocpp1.6': OcppCall;
  'ocpp2.0.1': OcppCall;
}

/** The mapping table of docs/spec/ocpp-mapping.md, one row per type and target type, with the exact payloads expected. */
const CASES: MappingCase[] = [
  {
    name: 'soft_reset',
    type: 'soft_reset',
    target: 'controller',
    'ocpp1.6': { action: 'Reset', payload: { type: 'Soft' } },
    'ocpp2.0.1': { action: 'Reset', payload: { type: 'OnIdle' } },
  },
  {
    name: 'hard_reset',
    type: 'hard_reset',
    target: 'controller',
    'ocpp1.6': { action: 'Reset', payload: { type: 'Hard' } },
    'ocpp2.0.1': { action: 'Reset', payload: { type: 'Immediate' } },
  },
  {
    name: 'clear_cache',
    type: 'clear_cache',
    target: 'controller',
    'ocpp1.6': { action: 'ClearCache', payload: {} },
    'ocpp2.0.1': { action: 'ClearCache', payload: {} },
  },
  {
    name: 'change_availability of the whole charge point',
    type: 'change_availability',
    target: 'controller',
    parameters: { availability: 'inoperative' },
    'ocpp1.6': { action: 'ChangeAvailability', payload: { connectorId: 0, type: 'Inoperative' } },
    'ocpp2.0.1': { action: 'ChangeAvailability', payload: { operationalStatus: 'Inoperative' } },
  },
  {
    name: 'change_availability of one connector',
    type: 'change_availability',
    target: 'connector',
    parameters: { availability: 'operative' },
    'ocpp1.6': { action: 'ChangeAvailability', payload: { connectorId: 2, type: 'Operative' } },
    'ocpp2.0.1': {
      action: 'ChangeAvailability',
      payload: { operationalStatus: 'Operative', evse: { id: 1, connectorId: 2 } },
    },
  },
  {
    name: 'unlock',
    type: 'unlock',
    target: 'connector',
    'ocpp1.6': { action: 'UnlockConnector', payload: { connectorId: 2 } },
    'ocpp2.0.1': { action: 'UnlockConnector', payload: { evseId: 1, connectorId: 2 } },
  },
  {
    name: 'trigger_message for the whole charge point',
    type: 'trigger_message',
    target: 'controller',
    parameters: { message: 'diagnostics_status_notification' },
    'ocpp1.6': { action: 'TriggerMessage', payload: { requestedMessage: 'DiagnosticsStatusNotification' } },
    'ocpp2.0.1': { action: 'TriggerMessage', payload: { requestedMessage: 'LogStatusNotification' } },
  },
  {
    name: 'trigger_message for one connector',
    type: 'trigger_message',
    target: 'connector',
    parameters: { message: 'status_notification' },
    'ocpp1.6': {
      action: 'TriggerMessage',
      payload: { requestedMessage: 'StatusNotification', connectorId: 2 },
    },
    'ocpp2.0.1': {
      action: 'TriggerMessage',
      payload: { requestedMessage: 'StatusNotification', evse: { id: 1, connectorId: 2 } },
    },
  },
  {
    name: 'get_local_list_version',
    type: 'get_local_list_version',
    target: 'controller',
    'ocpp1.6': { action: 'GetLocalListVersion', payload: {} },
    'ocpp2.0.1': { action: 'GetLocalListVersion', payload: {} },
  },
  {
    name: 'identify',
    type: 'identify',
    target: 'controller',
    'ocpp1.6': { action: 'TriggerMessage', payload: { requestedMessage: 'BootNotification' } },
    'ocpp2.0.1': { action: 'TriggerMessage', payload: { requestedMessage: 'BootNotification' } },
  },
  {
    name: 'update_firmware with every parameter (1.6 retrieves at install_at, it cannot schedule the install)',
    type: 'update_firmware',
    target: 'controller',
    parameters: {
      location: FIRMWARE_URL,
      retrieve_at: '2030-05-02T01:00:00Z',
      install_at: '2030-05-02T03:30:00+01:00',
      retries: 3,
      retry_interval: 120,
    },
    'ocpp1.6': {
      action: 'UpdateFirmware',
      payload: {
        location: FIRMWARE_URL,
        retrieveDate: '2030-05-02T02:30:00Z',
        retries: 3,
        retryInterval: 120,
      },
    },
    'ocpp2.0.1': {
      action: 'UpdateFirmware',
      payload: {
        requestId: GEN,
        retries: 3,
        retryInterval: 120,
        firmware: {
          location: FIRMWARE_URL,
          retrieveDateTime: '2030-05-02T01:00:00Z',
          installDateTime: '2030-05-02T02:30:00Z',
        },
      },
    },
  },
  {
    name: 'update_firmware with a retrieve date only',
    type: 'update_firmware',
    target: 'controller',
    parameters: { location: FIRMWARE_URL, retrieve_at: '2030-05-02T01:00:00Z' },
    'ocpp1.6': {
      action: 'UpdateFirmware',
      payload: { location: FIRMWARE_URL, retrieveDate: '2030-05-02T01:00:00Z' },
    },
    'ocpp2.0.1': {
      action: 'UpdateFirmware',
      payload: {
        requestId: GEN,
        firmware: { location: FIRMWARE_URL, retrieveDateTime: '2030-05-02T01:00:00Z' },
      },
    },
  },
  {
    name: 'update_firmware without a retrieve date (retrieve now)',
    type: 'update_firmware',
    target: 'controller',
    parameters: { location: FIRMWARE_URL },
    'ocpp1.6': {
      action: 'UpdateFirmware',
      payload: { location: FIRMWARE_URL, retrieveDate: '2030-05-01T08:00:00Z' },
    },
    'ocpp2.0.1': {
      action: 'UpdateFirmware',
      payload: {
        requestId: GEN,
        firmware: { location: FIRMWARE_URL, retrieveDateTime: '2030-05-01T08:00:00Z' },
      },
    },
  },
  {
    name: 'request_diagnostics with every parameter',
    type: 'request_diagnostics',
    target: 'controller',
    parameters: {
      location: UPLOAD_URL,
      start_time: '2030-04-01T00:00:00Z',
      stop_time: '2030-04-30T23:59:59.250Z',
      retries: 2,
      retry_interval: 30,
    },
    'ocpp1.6': {
      action: 'GetDiagnostics',
      payload: {
        location: UPLOAD_URL,
        retries: 2,
        retryInterval: 30,
        startTime: '2030-04-01T00:00:00Z',
        stopTime: '2030-04-30T23:59:59.250Z',
      },
    },
    'ocpp2.0.1': {
      action: 'GetLog',
      payload: {
        logType: 'DiagnosticsLog',
        requestId: GEN,
        retries: 2,
        retryInterval: 30,
        log: {
          remoteLocation: UPLOAD_URL,
          oldestTimestamp: '2030-04-01T00:00:00Z',
          latestTimestamp: '2030-04-30T23:59:59.250Z',
        },
      },
    },
  },
  {
    name: 'request_diagnostics with the location only',
    type: 'request_diagnostics',
    target: 'controller',
    parameters: { location: UPLOAD_URL },
    'ocpp1.6': { action: 'GetDiagnostics', payload: { location: UPLOAD_URL } },
    'ocpp2.0.1': {
      action: 'GetLog',
      payload: { logType: 'DiagnosticsLog', requestId: GEN, log: { remoteLocation: UPLOAD_URL } },
    },
  },
  {
    name: 'refresh_configuration of everything',
    type: 'refresh_configuration',
    target: 'controller',
    'ocpp1.6': { action: 'GetConfiguration', payload: {} },
    'ocpp2.0.1': { action: 'GetBaseReport', payload: { requestId: GEN, reportBase: 'FullInventory' } },
  },
  {
    name: 'refresh_configuration of Component.Variable keys',
    type: 'refresh_configuration',
    target: 'controller',
    parameters: { keys: ['OCPPCommCtrlr.HeartbeatInterval', 'TxCtrlr.EVConnectionTimeOut'] },
    'ocpp1.6': {
      action: 'GetConfiguration',
      payload: { key: ['OCPPCommCtrlr.HeartbeatInterval', 'TxCtrlr.EVConnectionTimeOut'] },
    },
    'ocpp2.0.1': {
      action: 'GetVariables',
      payload: {
        getVariableData: [
          { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } },
          { component: { name: 'TxCtrlr' }, variable: { name: 'EVConnectionTimeOut' } },
        ],
      },
    },
  },
  {
    name: 'refresh_configuration of 1.6-style keys (2.0.1: a full report, the keys name no component)',
    type: 'refresh_configuration',
    target: 'controller',
    parameters: { keys: ['HeartbeatInterval', 'OCPPCommCtrlr.HeartbeatInterval'] },
    'ocpp1.6': {
      action: 'GetConfiguration',
      payload: { key: ['HeartbeatInterval', 'OCPPCommCtrlr.HeartbeatInterval'] },
    },
    'ocpp2.0.1': { action: 'GetBaseReport', payload: { requestId: GEN, reportBase: 'FullInventory' } },
  },
  {
    name: 'remote_start on a connector with a charging profile',
    type: 'remote_start',
    target: 'connector',
    parameters: { id_tag: 'ABCDEF0123456789ABCD', charging_profile: relativeTxProfile },
    'ocpp1.6': {
      action: 'RemoteStartTransaction',
      payload: { connectorId: 2, idTag: 'ABCDEF0123456789ABCD', chargingProfile: ocpp16RelativeTxProfile },
    },
    'ocpp2.0.1': {
      action: 'RequestStartTransaction',
      payload: {
        evseId: 1,
        idToken: { idToken: 'ABCDEF0123456789ABCD', type: 'Central' },
        remoteStartId: GEN,
        chargingProfile: {
          id: 12,
          stackLevel: 1,
          chargingProfilePurpose: 'TxProfile',
          chargingProfileKind: 'Relative',
          chargingSchedule: [
            { id: 12, chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }] },
          ],
        },
      },
    },
  },
  {
    name: 'remote_start on the charge point (it picks the connector)',
    type: 'remote_start',
    target: 'controller',
    parameters: { id_tag: 'card-1' },
    'ocpp1.6': { action: 'RemoteStartTransaction', payload: { idTag: 'card-1' } },
    'ocpp2.0.1': {
      action: 'RequestStartTransaction',
      payload: { idToken: { idToken: 'card-1', type: 'Central' }, remoteStartId: GEN },
    },
  },
  {
    name: 'remote_stop (1.6 integer, 2.0.1 string transaction id)',
    type: 'remote_stop',
    target: 'charging_session',
    'ocpp1.6': { action: 'RemoteStopTransaction', payload: { transactionId: 4711 } },
    'ocpp2.0.1': { action: 'RequestStopTransaction', payload: { transactionId: '4711' } },
  },
  {
    name: 'reserve a connector with a generated reservation id',
    type: 'reserve',
    target: 'connector',
    parameters: { id_tag: 'card-1', expires_at: '2030-05-01T10:00:00+02:00' },
    'ocpp1.6': {
      action: 'ReserveNow',
      payload: { connectorId: 2, expiryDate: '2030-05-01T08:00:00Z', idTag: 'card-1', reservationId: GEN },
    },
    'ocpp2.0.1': {
      action: 'ReserveNow',
      payload: {
        id: GEN,
        expiryDateTime: '2030-05-01T08:00:00Z',
        idToken: { idToken: 'card-1', type: 'Central' },
        evseId: 1,
      },
    },
  },
  {
    name: 'reserve the charge point with a given reservation id',
    type: 'reserve',
    target: 'controller',
    parameters: { id_tag: 'card-1', expires_at: '2030-05-01T10:00:00Z', reservation_id: 77 },
    'ocpp1.6': {
      action: 'ReserveNow',
      payload: { connectorId: 0, expiryDate: '2030-05-01T10:00:00Z', idTag: 'card-1', reservationId: 77 },
    },
    'ocpp2.0.1': {
      action: 'ReserveNow',
      payload: {
        id: 77,
        expiryDateTime: '2030-05-01T10:00:00Z',
        idToken: { idToken: 'card-1', type: 'Central' },
      },
    },
  },
  {
    name: 'cancel_reservation',
    type: 'cancel_reservation',
    target: 'controller',
    parameters: { reservation_id: 77 },
    'ocpp1.6': { action: 'CancelReservation', payload: { reservationId: 77 } },
    'ocpp2.0.1': { action: 'CancelReservation', payload: { reservationId: 77 } },
  },
  {
    name: 'set_charging_profile: station maximum on the charge point',
    type: 'set_charging_profile',
    target: 'controller',
    parameters: { charging_profile: absoluteMaxProfile },
    'ocpp1.6': {
      action: 'SetChargingProfile',
      payload: { connectorId: 0, csChargingProfiles: ocpp16AbsoluteMaxProfile },
    },
    'ocpp2.0.1': {
      action: 'SetChargingProfile',
      payload: {
        evseId: 0,
        chargingProfile: {
          id: 10,
          stackLevel: 0,
          chargingProfilePurpose: 'ChargingStationMaxProfile',
          chargingProfileKind: 'Absolute',
          chargingSchedule: [
            {
              id: 10,
              startSchedule: '2030-05-01T00:00:00Z',
              chargingRateUnit: 'W',
              chargingSchedulePeriod: [
                { startPeriod: 0, limit: 22000 },
                { startPeriod: 3600, limit: 11000.5 },
              ],
            },
          ],
        },
      },
    },
  },
  {
    name: 'set_charging_profile: recurring default on a connector',
    type: 'set_charging_profile',
    target: 'connector',
    parameters: { charging_profile: recurringDefaultProfile },
    'ocpp1.6': {
      action: 'SetChargingProfile',
      payload: { connectorId: 2, csChargingProfiles: ocpp16RecurringDefaultProfile },
    },
    'ocpp2.0.1': {
      action: 'SetChargingProfile',
      payload: {
        evseId: 1,
        chargingProfile: {
          id: 11,
          stackLevel: 2,
          chargingProfilePurpose: 'TxDefaultProfile',
          chargingProfileKind: 'Recurring',
          recurrencyKind: 'Daily',
          validFrom: '2030-05-01T00:00:00Z',
          validTo: '2031-04-30T22:00:00Z',
          chargingSchedule: [
            {
              id: 11,
              startSchedule: '2030-05-01T22:00:00Z',
              duration: 86400,
              chargingRateUnit: 'A',
              chargingSchedulePeriod: [
                { startPeriod: 0, limit: 16, numberPhases: 3 },
                { startPeriod: 28800, limit: 32.3, numberPhases: 1 },
              ],
              minChargingRate: 6.1,
            },
          ],
        },
      },
    },
  },
  {
    name: 'set_charging_profile: transaction profile on a charging session',
    type: 'set_charging_profile',
    target: 'charging_session',
    parameters: { charging_profile: relativeTxProfile },
    'ocpp1.6': {
      action: 'SetChargingProfile',
      payload: { connectorId: 2, csChargingProfiles: { ...ocpp16RelativeTxProfile, transactionId: 4711 } },
    },
    'ocpp2.0.1': {
      action: 'SetChargingProfile',
      payload: {
        evseId: 1,
        chargingProfile: {
          id: 12,
          stackLevel: 1,
          chargingProfilePurpose: 'TxProfile',
          chargingProfileKind: 'Relative',
          transactionId: '4711',
          chargingSchedule: [
            { id: 12, chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }] },
          ],
        },
      },
    },
  },
  {
    name: 'clear_charging_profile: everything on the charge point',
    type: 'clear_charging_profile',
    target: 'controller',
    'ocpp1.6': { action: 'ClearChargingProfile', payload: {} },
    'ocpp2.0.1': { action: 'ClearChargingProfile', payload: {} },
  },
  {
    name: 'clear_charging_profile: by purpose on the charge point',
    type: 'clear_charging_profile',
    target: 'controller',
    parameters: { purpose: 'charge_point_max_profile' },
    'ocpp1.6': {
      action: 'ClearChargingProfile',
      payload: { chargingProfilePurpose: 'ChargePointMaxProfile' },
    },
    'ocpp2.0.1': {
      action: 'ClearChargingProfile',
      payload: { chargingProfileCriteria: { chargingProfilePurpose: 'ChargingStationMaxProfile' } },
    },
  },
  {
    name: 'clear_charging_profile: every criterion on a connector',
    type: 'clear_charging_profile',
    target: 'connector',
    parameters: { id: 5, purpose: 'tx_default_profile', stack_level: 1 },
    'ocpp1.6': {
      action: 'ClearChargingProfile',
      payload: { id: 5, connectorId: 2, chargingProfilePurpose: 'TxDefaultProfile', stackLevel: 1 },
    },
    'ocpp2.0.1': {
      action: 'ClearChargingProfile',
      payload: {
        chargingProfileId: 5,
        chargingProfileCriteria: { evseId: 1, chargingProfilePurpose: 'TxDefaultProfile', stackLevel: 1 },
      },
    },
  },
];

function build(
  protocol: OcppProtocol,
  type: CommandType,
  target: ResolvedTarget,
  parameters?: unknown,
  uuid = COMMAND_UUID,
) {
  return buildOcppCall(protocol, { type, parameters, commandUuid: uuid }, target, { now: NOW });
}

function buildError(run: () => unknown): OcppCallBuildError {
  try {
    run();
  } catch (error) {
    if (error instanceof OcppCallBuildError) return error;
    throw error;
  }
  throw new Error('expected an OcppCallBuildError');
}

describe('buildOcppCall', () => {
  it('checks payloads against the real schemas (the check itself can fail)', () => {
    expect(schemaViolation('ocpp1.6', 'Reset', 'req', { type: 'OnIdle' })).toMatch(/allowed values/);
    expect(schemaViolation('ocpp2.0.1', 'Reset', 'req', { type: 'Soft' })).toMatch(/allowed values/);
    expect(schemaViolation('ocpp1.6', 'RemoteStopTransaction', 'req', { transactionId: '4711' })).toMatch(
      /integer/,
    );
    expect(schemaViolation('ocpp2.0.1', 'RequestStopTransaction', 'req', { transactionId: 4711 })).toMatch(
      /string/,
    );
  });

  it('has a mapping case for every type and allowed target type', () => {
    // change_configuration takes other parameters on each protocol: its own tests below.
    const covered = new Set([
      ...CASES.map((row) => `${row.type}@${row.target}`),
      'change_configuration@controller',
      // send_local_list needs the list assets-service prepares: its own tests below.
      'send_local_list@controller',
    ]);
    const expected = COMMAND_TYPES.flatMap((type) =>
      COMMAND_TARGET_TYPES[type].map((target) => `${type}@${target}`),
    );
    expect([...covered].sort()).toEqual([...expected].sort());
  });

  describe.each(OCPP_PROTOCOLS)('%s', (protocol) => {
    it.each(CASES.map((row) => [row.name, row] as const))('%s', (_name, row) => {
      const call = build(protocol, row.type, TARGETS[row.target], row.parameters);
      expect(call).toEqual(row[protocol]);
      expect(schemaViolation(protocol, call.action, 'req', call.payload)).toBeUndefined();
    });

    it('uses only actions of its protocol', () => {
      const actions: readonly string[] = protocol === 'ocpp1.6' ? OCPP16_ACTIONS : OCPP201_ACTIONS;
      for (const row of CASES)
        expect(actions).toContain(build(protocol, row.type, TARGETS[row.target], row.parameters).action);
    });

    it('builds the same payload again for a redelivery, another one for another command', () => {
      const parameters = { id_tag: 'card-1', expires_at: '2030-05-01T10:00:00Z' };
      const first = build(protocol, 'reserve', TARGETS.connector, parameters);
      expect(build(protocol, 'reserve', TARGETS.connector, parameters)).toEqual(first);
      const other = '0190f2d6-7c1a-7000-8000-000000000001';
      expect(build(protocol, 'reserve', TARGETS.connector, parameters, other)).not.toEqual(first);
    });

    it('still sends a reservation whose expiry passed since creation (the charge point refuses it)', () => {
      const call = build(protocol, 'reserve', TARGETS.controller, {
        id_tag: 'card-1',
        expires_at: '2020-01-01T00:00:00Z',
      });
      expect(call.action).toBe('ReserveNow');
    });

    it('accepts null or absent parameters for types without parameters', () => {
      expect(build(protocol, 'clear_cache', TARGETS.controller, null).action).toBe('ClearCache');
      expect(build(protocol, 'clear_cache', TARGETS.controller).action).toBe('ClearCache');
    });

    it('fails with invalid_target when the type cannot address the target type', () => {
      const error = buildError(() => build(protocol, 'unlock', TARGETS.controller));
      expect(error.errorKey).toBe('invalid_target');
      expect(error.issues).toEqual([
        expect.objectContaining({ errorKey: 'invalid_target_type', parameter: 'type' }),
      ]);
    });

    it('fails with invalid_parameters when the stored parameters do not validate', () => {
      const error = buildError(() =>
        build(protocol, 'remote_start', TARGETS.connector, { id_tag: 'x'.repeat(21) }),
      );
      expect(error.errorKey).toBe('invalid_parameters');
      expect(error.issues).toEqual([
        expect.objectContaining({ errorKey: 'invalid_length', parameter: 'parameters.id_tag' }),
      ]);
    });

    it.each([0, -1, 1.5, Number.NaN])('fails with invalid_target for connector id %s', (connectorId) => {
      const target: ResolvedTarget = { targetType: 'connector', connectorId, evseId: 1 };
      expect(buildError(() => build(protocol, 'unlock', target)).errorKey).toBe('invalid_target');
    });

    it('fails with invalid_target for a transaction id that is empty or longer than 36 characters', () => {
      for (const transactionId of ['', '1'.repeat(37)]) {
        const target: ResolvedTarget = { targetType: 'charging_session', transactionId };
        expect(buildError(() => build(protocol, 'remote_stop', target)).errorKey).toBe('invalid_target');
      }
    });
  });

  describe('send_local_list', () => {
    const localList = {
      listVersion: 4,
      updateType: 'differential' as const,
      tokens: [
        {
          uuid: '0b7f3b4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
          idToken: 'CARD-1',
          type: 'iso14443' as const,
          status: 'blocked' as const,
          expiresAt: null,
          group: null,
          allowedLocationUuids: [],
        },
      ],
      removals: [{ idToken: 'CARD-2', type: 'iso14443' as const }],
    };
    const parameters = { update_type: 'differential' };

    it.each(OCPP_PROTOCOLS)('%s sends the prepared list', (protocol) => {
      const call = buildOcppCall(
        protocol,
        { type: 'send_local_list', parameters, commandUuid: COMMAND_UUID },
        TARGETS.controller,
        { now: NOW, localList },
      );
      expect(call.action).toBe('SendLocalList');
      expect(call.payload).toMatchObject(
        protocol === 'ocpp1.6'
          ? { listVersion: 4, updateType: 'Differential' }
          : { versionNumber: 4, updateType: 'Differential' },
      );
      expect(call.payload.localAuthorizationList).toHaveLength(2);
      expect(schemaViolation(protocol, call.action, 'req', call.payload)).toBeUndefined();
    });

    it.each(OCPP_PROTOCOLS)('%s fails with invalid_parameters without a prepared list', (protocol) => {
      const error = buildError(() => build(protocol, 'send_local_list', TARGETS.controller, parameters));
      expect(error.errorKey).toBe('invalid_parameters');
    });
  });

  describe('ocpp1.6 specifics', () => {
    it('parses the transaction id to an integer, negative ids included', () => {
      const target: ResolvedTarget = { targetType: 'charging_session', transactionId: '-12' };
      expect(build('ocpp1.6', 'remote_stop', target).payload).toEqual({ transactionId: -12 });
    });

    it.each(['abc', '12.5', '1e3', '2147483648', ' 12', '0x10'])(
      'fails with invalid_target for the non-1.6 transaction id %j',
      (transactionId) => {
        const target: ResolvedTarget = { targetType: 'charging_session', transactionId };
        expect(buildError(() => build('ocpp1.6', 'remote_stop', target)).errorKey).toBe('invalid_target');
      },
    );

    it('needs the connector of the transaction for a transaction profile', () => {
      const target: ResolvedTarget = { targetType: 'charging_session', transactionId: '4711' };
      const parameters = { charging_profile: relativeTxProfile };
      expect(buildError(() => build('ocpp1.6', 'set_charging_profile', target, parameters)).errorKey).toBe(
        'invalid_target',
      );
    });

    it('does not need an EVSE id', () => {
      const target: ResolvedTarget = { targetType: 'connector', connectorId: 3 };
      expect(build('ocpp1.6', 'unlock', target).payload).toEqual({ connectorId: 3 });
    });
  });

  describe('ocpp2.0.1 specifics', () => {
    it('keeps a non-numeric transaction id as it is', () => {
      const transactionId = 'b9e1c0de-5c3a-4f5e-9a51-2f7d7c0e1a99';
      const target: ResolvedTarget = { targetType: 'charging_session', transactionId, evseId: 2 };
      const stop = build('ocpp2.0.1', 'remote_stop', target);
      expect(stop.payload).toEqual({ transactionId });
      const profile = build('ocpp2.0.1', 'set_charging_profile', target, {
        charging_profile: relativeTxProfile,
      });
      expect(profile.payload).toMatchObject({ evseId: 2, chargingProfile: { transactionId } });
      expect(schemaViolation('ocpp2.0.1', profile.action, 'req', profile.payload)).toBeUndefined();
    });

    it.each(['unlock', 'reserve', 'remote_start', 'change_availability', 'clear_charging_profile'] as const)(
      'needs the EVSE id of a connector target for %s',
      (type) => {
        const target: ResolvedTarget = { targetType: 'connector', connectorId: 1, evseId: null };
        const parameters = {
          reserve: { id_tag: 'card-1', expires_at: '2030-05-01T10:00:00Z' },
          remote_start: { id_tag: 'card-1' },
          change_availability: { availability: 'operative' },
        }[type as string];
        expect(buildError(() => build('ocpp2.0.1', type, target, parameters)).errorKey).toBe(
          'invalid_target',
        );
      },
    );

    it('needs the EVSE of the transaction for a transaction profile', () => {
      const target: ResolvedTarget = {
        targetType: 'charging_session',
        transactionId: 'tx-1',
        connectorId: 1,
      };
      const parameters = { charging_profile: relativeTxProfile };
      expect(buildError(() => build('ocpp2.0.1', 'set_charging_profile', target, parameters)).errorKey).toBe(
        'invalid_target',
      );
    });
  });

  it('rejects an unknown protocol', () => {
    expect(() => build('ocpp2.1' as OcppProtocol, 'clear_cache', TARGETS.controller)).toThrow(TypeError);
  });
});

describe('generated ids', () => {
  it('derives a pinned, case-insensitive id from the command uuid', () => {
    expect(ocppIdFromCommandUuid(COMMAND_UUID)).toBe(GEN);
    expect(ocppIdFromCommandUuid(COMMAND_UUID.toUpperCase())).toBe(GEN);
  });

  it('stays a positive int32 and spreads time-ordered (v7) uuids that differ in few digits', () => {
    const ids = new Set<number>();
    for (let index = 0; index < 2000; index++) {
      const id = ocppIdFromCommandUuid(`0190f2d6-7c1a-7000-8000-${String(index).padStart(12, '0')}`);
      expect(Number.isInteger(id) && id >= 1 && id <= 2 ** 31 - 1).toBe(true);
      ids.add(id);
    }
    expect(ids.size).toBe(2000);
  });

  it('uses the given reservation id, else the generated one', () => {
    expect(reservationIdFor({ reservation_id: 0 }, COMMAND_UUID)).toBe(0);
    expect(reservationIdFor({}, COMMAND_UUID)).toBe(GEN);
  });
});

describe('buildOcppCalls: change_configuration', () => {
  const calls = (protocol: OcppProtocol, parameters: unknown) =>
    buildOcppCalls(
      protocol,
      { type: 'change_configuration', parameters, commandUuid: COMMAND_UUID },
      TARGETS.controller,
    );

  it('1.6: one ChangeConfiguration per key, in order', () => {
    const built = calls('ocpp1.6', {
      settings: [
        { key: 'HeartbeatInterval', value: '60' },
        { key: 'AuthorizationKey', value: '' },
      ],
    });
    expect(built).toEqual([
      { action: 'ChangeConfiguration', payload: { key: 'HeartbeatInterval', value: '60' } },
      { action: 'ChangeConfiguration', payload: { key: 'AuthorizationKey', value: '' } },
    ]);
    for (const call of built)
      expect(schemaViolation('ocpp1.6', call.action, 'req', call.payload)).toBeUndefined();
    expect(() =>
      buildOcppCall(
        'ocpp1.6',
        {
          type: 'change_configuration',
          parameters: {
            settings: [
              { key: 'A', value: '1' },
              { key: 'B', value: '2' },
            ],
          },
          commandUuid: COMMAND_UUID,
        },
        TARGETS.controller,
      ),
    ).toThrow(TypeError);
  });

  it('2.0.1: one SetVariables with every setting', () => {
    const built = calls('ocpp2.0.1', {
      settings: [
        { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '60' },
        {
          component: 'EVSE',
          component_instance: 'main',
          evse_id: 1,
          connector_id: 2,
          variable: 'Power',
          variable_instance: 'L1',
          attribute_type: 'MaxSet',
          value: '11000',
        },
      ],
    });
    expect(built).toEqual([
      {
        action: 'SetVariables',
        payload: {
          setVariableData: [
            {
              attributeValue: '60',
              component: { name: 'OCPPCommCtrlr' },
              variable: { name: 'HeartbeatInterval' },
            },
            {
              attributeType: 'MaxSet',
              attributeValue: '11000',
              component: { name: 'EVSE', instance: 'main', evse: { id: 1, connectorId: 2 } },
              variable: { name: 'Power', instance: 'L1' },
            },
          ],
        },
      },
    ]);
    expect(schemaViolation('ocpp2.0.1', 'SetVariables', 'req', built[0].payload)).toBeUndefined();
  });

  it('fails with invalid_parameters when the settings are of the other protocol', () => {
    const keys = { settings: [{ key: 'HeartbeatInterval', value: '60' }] };
    const variables = {
      settings: [{ component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '60' }],
    };
    expect(buildError(() => calls('ocpp2.0.1', keys)).errorKey).toBe('invalid_parameters');
    expect(buildError(() => calls('ocpp1.6', variables)).errorKey).toBe('invalid_parameters');
  });
});
