import { buildOcppCalls } from './build-ocpp-call.js';
import { settingResults } from './configuration-changes.js';
import { ocppCall } from './ocpp-call.js';

describe('settingResults', () => {
  it('1.6: each key with the answer to its own call', () => {
    const calls = [
      ocppCall('ChangeConfiguration', { key: 'A', value: '1' }),
      ocppCall('ChangeConfiguration', { key: 'B', value: '' }),
    ];
    expect(settingResults('ocpp1.6', calls, [{ status: 'Accepted' }, { status: 'NotSupported' }])).toEqual([
      { key: 'A', value: '1', status: 'Accepted' },
      { key: 'B', value: '', status: 'NotSupported' },
    ]);
  });

  it('2.0.1: results matched to the settings by component, EVSE, variable and attribute type, not by position', () => {
    const [call] = buildOcppCalls(
      'ocpp2.0.1',
      {
        type: 'change_configuration',
        commandUuid: '5f0c9b0e-2a57-4d43-9a5e-0c1a3f6a7b21',
        parameters: {
          settings: [
            { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '60' },
            { component: 'EVSE', evse_id: 2, variable: 'Power', attribute_type: 'MaxSet', value: '7400' },
            { component: 'Unanswered', variable: 'V', value: 'x' },
          ],
        },
      },
      { targetType: 'controller' },
    );
    const response = {
      setVariableResult: [
        {
          attributeStatus: 'RebootRequired',
          attributeType: 'MaxSet',
          component: { name: 'EVSE', evse: { id: 2 } },
          variable: { name: 'Power' },
        },
        {
          attributeStatus: 'Rejected',
          component: { name: 'OCPPCommCtrlr' },
          variable: { name: 'HeartbeatInterval' },
        },
      ],
    };
    expect(settingResults('ocpp2.0.1', [call], [response])).toEqual([
      {
        component: 'OCPPCommCtrlr',
        variable: 'HeartbeatInterval',
        attribute_type: 'Actual',
        value: '60',
        status: 'Rejected',
      },
      {
        component: 'EVSE',
        evse_id: 2,
        variable: 'Power',
        attribute_type: 'MaxSet',
        value: '7400',
        status: 'RebootRequired',
      },
      { component: 'Unanswered', variable: 'V', attribute_type: 'Actual', value: 'x', status: 'Missing' },
    ]);
  });
});
