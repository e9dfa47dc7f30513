import type { OcppProtocol } from '@cpc/contracts';
import { classifyOcppResponse } from './classify-ocpp-response.js';
import { OCPP16_ACTIONS, OCPP201_ACTIONS } from './ocpp-call.js';
import { classifyCallError, COMMAND_RESULT_ERRORS, CommandResultError } from './result-errors.js';
import { replyStatusValues, schemaViolation } from './testing/ocpp-schemas.js';

interface StatusRow {
  protocol: OcppProtocol;
  actions: string[];
  accepted: string[];
  rejected: string[];
}

/** The answer table of docs/spec/ocpp-mapping.md for replies with a status: every status value each schema allows. */
const STATUS_ROWS: StatusRow[] = [
  {
    protocol: 'ocpp1.6',
    actions: ['SendLocalList'],
    accepted: ['Accepted'],
    rejected: ['Failed', 'NotSupported', 'VersionMismatch'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['SendLocalList'],
    accepted: ['Accepted'],
    rejected: ['Failed', 'VersionMismatch'],
  },
  { protocol: 'ocpp1.6', actions: ['Reset'], accepted: ['Accepted'], rejected: ['Rejected'] },
  { protocol: 'ocpp2.0.1', actions: ['Reset'], accepted: ['Accepted', 'Scheduled'], rejected: ['Rejected'] },
  {
    protocol: 'ocpp1.6',
    actions: ['ClearCache', 'CancelReservation', 'RemoteStartTransaction', 'RemoteStopTransaction'],
    accepted: ['Accepted'],
    rejected: ['Rejected'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['ClearCache', 'CancelReservation', 'RequestStartTransaction', 'RequestStopTransaction'],
    accepted: ['Accepted'],
    rejected: ['Rejected'],
  },
  {
    protocol: 'ocpp1.6',
    actions: ['ChangeConfiguration'],
    accepted: ['Accepted', 'RebootRequired'],
    rejected: ['Rejected', 'NotSupported'],
  },
  {
    protocol: 'ocpp1.6',
    actions: ['TriggerMessage'],
    accepted: ['Accepted'],
    rejected: ['Rejected', 'NotImplemented'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['TriggerMessage'],
    accepted: ['Accepted'],
    rejected: ['Rejected', 'NotImplemented'],
  },
  {
    protocol: 'ocpp1.6',
    actions: ['ChangeAvailability'],
    accepted: ['Accepted', 'Scheduled'],
    rejected: ['Rejected'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['ChangeAvailability'],
    accepted: ['Accepted', 'Scheduled'],
    rejected: ['Rejected'],
  },
  {
    protocol: 'ocpp1.6',
    actions: ['UnlockConnector'],
    accepted: ['Unlocked'],
    rejected: ['UnlockFailed', 'NotSupported'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['UnlockConnector'],
    accepted: ['Unlocked'],
    rejected: ['UnlockFailed', 'OngoingAuthorizedTransaction', 'UnknownConnector'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['UpdateFirmware'],
    accepted: ['Accepted', 'AcceptedCanceled'],
    rejected: ['Rejected', 'InvalidCertificate', 'RevokedCertificate'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['GetLog'],
    accepted: ['Accepted', 'AcceptedCanceled'],
    rejected: ['Rejected'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['GetBaseReport'],
    accepted: ['Accepted'],
    rejected: ['Rejected', 'NotSupported', 'EmptyResultSet'],
  },
  {
    protocol: 'ocpp1.6',
    actions: ['ReserveNow'],
    accepted: ['Accepted'],
    rejected: ['Faulted', 'Occupied', 'Rejected', 'Unavailable'],
  },
  {
    protocol: 'ocpp2.0.1',
    actions: ['ReserveNow'],
    accepted: ['Accepted'],
    rejected: ['Faulted', 'Occupied', 'Rejected', 'Unavailable'],
  },
  {
    protocol: 'ocpp1.6',
    actions: ['SetChargingProfile'],
    accepted: ['Accepted'],
    rejected: ['Rejected', 'NotSupported'],
  },
  { protocol: 'ocpp2.0.1', actions: ['SetChargingProfile'], accepted: ['Accepted'], rejected: ['Rejected'] },
  { protocol: 'ocpp1.6', actions: ['ClearChargingProfile'], accepted: ['Accepted'], rejected: ['Unknown'] },
  { protocol: 'ocpp2.0.1', actions: ['ClearChargingProfile'], accepted: ['Accepted'], rejected: ['Unknown'] },
];

const statusCases = STATUS_ROWS.flatMap((row) =>
  row.actions.flatMap((action) => [
    ...row.accepted.map((status) => [row.protocol, action, status, 'accepted'] as const),
    ...row.rejected.map((status) => [row.protocol, action, status, 'rejected'] as const),
  ]),
);

describe('classifyOcppResponse', () => {
  it.each(statusCases)('%s %s %s → %s', (protocol, action, status, expected) => {
    const response = { status };
    expect(schemaViolation(protocol, action, 'conf', response)).toBeUndefined();
    expect(classifyOcppResponse(protocol, action, response)).toEqual({
      status: expected,
      resultStatus: status,
    });
  });

  it('covers every status value the schemas allow for the actions with a status', () => {
    for (const row of STATUS_ROWS) {
      for (const action of row.actions) {
        expect([...row.accepted, ...row.rejected].sort()).toEqual(
          replyStatusValues(row.protocol, action).sort(),
        );
      }
    }
  });

  it('keeps 2.0.1 statusInfo out of the decision', () => {
    const response = { status: 'Rejected', statusInfo: { reasonCode: 'TxInProgress' } };
    expect(schemaViolation('ocpp2.0.1', 'Reset', 'conf', response)).toBeUndefined();
    expect(classifyOcppResponse('ocpp2.0.1', 'Reset', response)).toEqual({
      status: 'rejected',
      resultStatus: 'Rejected',
    });
  });

  it('rejects a status outside the table, keeping it as sent', () => {
    expect(classifyOcppResponse('ocpp1.6', 'Reset', { status: 'accepted' })).toEqual({
      status: 'rejected',
      resultStatus: 'accepted',
    });
  });

  describe('replies without a status (stand-ins)', () => {
    it('1.6 UpdateFirmware: any valid reply is accepted, stand-in Accepted', () => {
      expect(schemaViolation('ocpp1.6', 'UpdateFirmware', 'conf', {})).toBeUndefined();
      expect(classifyOcppResponse('ocpp1.6', 'UpdateFirmware', {})).toEqual({
        status: 'accepted',
        resultStatus: 'Accepted',
      });
    });

    it('1.6 GetDiagnostics: accepted with a fileName, rejected without (stand-ins Accepted / Rejected)', () => {
      for (const response of [{ fileName: 'diag-2030-05-01.zip' }, {}, { fileName: '' }]) {
        expect(schemaViolation('ocpp1.6', 'GetDiagnostics', 'conf', response)).toBeUndefined();
      }
      expect(classifyOcppResponse('ocpp1.6', 'GetDiagnostics', { fileName: 'diag-2030-05-01.zip' })).toEqual({
        status: 'accepted',
        resultStatus: 'Accepted',
      });
      expect(classifyOcppResponse('ocpp1.6', 'GetDiagnostics', {})).toEqual({
        status: 'rejected',
        resultStatus: 'Rejected',
      });
      expect(classifyOcppResponse('ocpp1.6', 'GetDiagnostics', { fileName: '' })).toEqual({
        status: 'rejected',
        resultStatus: 'Rejected',
      });
    });

    it('1.6 GetConfiguration: any valid reply is accepted, unknown keys included', () => {
      const responses = [
        {
          configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }],
          unknownKey: ['Foo'],
        },
        { unknownKey: ['Foo'] },
        {},
      ];
      for (const response of responses) {
        expect(schemaViolation('ocpp1.6', 'GetConfiguration', 'conf', response)).toBeUndefined();
        expect(classifyOcppResponse('ocpp1.6', 'GetConfiguration', response)).toEqual({
          status: 'accepted',
          resultStatus: 'Accepted',
        });
      }
    });

    it('2.0.1 GetVariables: a reply with results is accepted whatever the per-variable statuses', () => {
      const response = {
        getVariableResult: [
          {
            attributeStatus: 'Accepted',
            attributeValue: '300',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
          },
          { attributeStatus: 'UnknownVariable', component: { name: 'TxCtrlr' }, variable: { name: 'Foo' } },
        ],
      };
      expect(schemaViolation('ocpp2.0.1', 'GetVariables', 'conf', response)).toBeUndefined();
      expect(classifyOcppResponse('ocpp2.0.1', 'GetVariables', response)).toEqual({
        status: 'accepted',
        resultStatus: 'Accepted',
      });
    });

    it.each([
      ['ocpp1.6', { listVersion: 7 }],
      ['ocpp1.6', { listVersion: -1 }],
      ['ocpp2.0.1', { versionNumber: 0 }],
    ] as const)(
      '%s GetLocalListVersion %j: accepted, the version left in the reply',
      (protocol, response) => {
        expect(schemaViolation(protocol, 'GetLocalListVersion', 'conf', response)).toBeUndefined();
        expect(classifyOcppResponse(protocol, 'GetLocalListVersion', response)).toEqual({
          status: 'accepted',
          resultStatus: 'Accepted',
        });
      },
    );
  });

  describe('invalid replies fail the command with invalid_response', () => {
    const invalid = { status: 'failed', error: 'invalid_response' };
    it.each([
      ['ocpp1.6', 'Reset', {}],
      ['ocpp1.6', 'Reset', { status: 1 }],
      ['ocpp2.0.1', 'ReserveNow', { status: null }],
      ['ocpp1.6', 'UpdateFirmware', null],
      ['ocpp1.6', 'GetConfiguration', []],
      ['ocpp1.6', 'GetDiagnostics', 'diag.zip'],
      ['ocpp1.6', 'GetDiagnostics', { fileName: 42 }],
      ['ocpp2.0.1', 'GetVariables', {}],
      ['ocpp2.0.1', 'GetVariables', { getVariableResult: 'x' }],
      ['ocpp2.0.1', 'UnlockConnector', undefined],
      ['ocpp1.6', 'GetLocalListVersion', { versionNumber: 3 }],
      ['ocpp2.0.1', 'GetLocalListVersion', { versionNumber: 1.5 }],
    ] as const)('%s %s %j', (protocol, action, response) => {
      expect(classifyOcppResponse(protocol, action, response)).toEqual(invalid);
    });
  });

  it('knows every action it sends, on each protocol', () => {
    for (const action of OCPP16_ACTIONS)
      expect(() => classifyOcppResponse('ocpp1.6', action, {})).not.toThrow();
    for (const action of OCPP201_ACTIONS)
      expect(() => classifyOcppResponse('ocpp2.0.1', action, {})).not.toThrow();
  });

  it('throws for actions it never sends on that protocol', () => {
    expect(() => classifyOcppResponse('ocpp2.0.1', 'GetDiagnostics', {})).toThrow(TypeError);
    expect(() => classifyOcppResponse('ocpp1.6', 'GetLog', {})).toThrow(TypeError);
    expect(() => classifyOcppResponse('ocpp1.6', 'toString', {})).toThrow(TypeError);
    expect(() => classifyOcppResponse('ocpp2.1' as OcppProtocol, 'Reset', {})).toThrow(TypeError);
  });
});

describe('classifyCallError', () => {
  it.each([
    ['NotImplemented', 'ocpp_not_implemented'],
    ['NotSupported', 'ocpp_not_supported'],
    ['InternalError', 'ocpp_internal_error'],
    ['ProtocolError', 'ocpp_protocol_error'],
    ['SecurityError', 'ocpp_security_error'],
    ['FormatViolation', 'ocpp_format_violation'],
    ['FormationViolation', 'ocpp_format_violation'],
    ['PropertyConstraintViolation', 'ocpp_property_constraint_violation'],
    ['OccurrenceConstraintViolation', 'ocpp_occurrence_constraint_violation'],
    ['OccurenceConstraintViolation', 'ocpp_occurrence_constraint_violation'],
    ['TypeConstraintViolation', 'ocpp_type_constraint_violation'],
    ['GenericError', 'ocpp_generic_error'],
    ['MessageTypeNotSupported', 'ocpp_message_type_not_supported'],
    ['RpcFrameworkError', 'ocpp_rpc_framework_error'],
    ['VendorBusy', 'ocpp_generic_error'],
    ['constructor', 'ocpp_generic_error'],
    ['', 'ocpp_generic_error'],
  ])('%j → %s', (code, key) => {
    expect(classifyCallError(code)).toBe(key);
  });

  it('documents every key it returns, and the platform failures', () => {
    expect(COMMAND_RESULT_ERRORS).toEqual(
      expect.arrayContaining([
        'charge_point_offline',
        'connection_lost',
        'target_deleted',
        'invalid_response',
      ]),
    );
    expect(new Set(COMMAND_RESULT_ERRORS).size).toBe(COMMAND_RESULT_ERRORS.length);
    for (const key of COMMAND_RESULT_ERRORS) expect(key).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
    expect(COMMAND_RESULT_ERRORS).toContain(CommandResultError.OcppNotImplemented);
  });
});

describe('classifyOcppResponse: 2.0.1 SetVariables', () => {
  const results = (...statuses: string[]) => ({
    setVariableResult: statuses.map((attributeStatus, index) => ({
      attributeStatus,
      component: { name: 'C' },
      variable: { name: `V${index}` },
    })),
  });

  it('is accepted when every setting is Accepted or RebootRequired, the status saying whether a reboot is due', () => {
    expect(classifyOcppResponse('ocpp2.0.1', 'SetVariables', results('Accepted', 'Accepted'))).toEqual({
      status: 'accepted',
      resultStatus: 'Accepted',
    });
    expect(classifyOcppResponse('ocpp2.0.1', 'SetVariables', results('Accepted', 'RebootRequired'))).toEqual({
      status: 'accepted',
      resultStatus: 'RebootRequired',
    });
  });

  it('is rejected with the first refusing status, and invalid without results', () => {
    expect(
      classifyOcppResponse(
        'ocpp2.0.1',
        'SetVariables',
        results('RebootRequired', 'UnknownVariable', 'Rejected'),
      ),
    ).toEqual({ status: 'rejected', resultStatus: 'UnknownVariable' });
    expect(classifyOcppResponse('ocpp2.0.1', 'SetVariables', { setVariableResult: [] })).toEqual({
      status: 'failed',
      error: 'invalid_response',
    });
  });
});
