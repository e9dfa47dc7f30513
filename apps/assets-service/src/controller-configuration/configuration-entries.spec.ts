import { fromGetConfiguration, fromGetVariables, fromReportData } from './configuration-entries.js';

describe('configuration entries from OCPP answers', () => {
  it('1.6 GetConfiguration: keys with readonly as mutability, unknown keys with status UnknownKey', () => {
    const entries = fromGetConfiguration({
      configurationKey: [
        { key: 'HeartbeatInterval', readonly: false, value: '300' },
        { key: 'NumberOfConnectors', readonly: true },
      ],
      unknownKey: ['Nope'],
    });
    expect(entries.map(({ key, value, mutability, status }) => [key, value, mutability, status])).toEqual([
      ['HeartbeatInterval', '300', 'ReadWrite', 'Accepted'],
      ['NumberOfConnectors', null, 'ReadOnly', 'Accepted'],
      ['Nope', null, undefined, 'UnknownKey'],
    ]);
  });

  it('2.0.1 GetVariables: the value only when Accepted, mutability and characteristics left as stored', () => {
    const [accepted, refused] = fromGetVariables({
      getVariableResult: [
        {
          attributeStatus: 'Accepted',
          attributeType: 'Target',
          attributeValue: '16',
          component: { name: 'EVSE', instance: 'main', evse: { id: 1, connectorId: 2 } },
          variable: { name: 'Current', instance: 'L1' },
        },
        { attributeStatus: 'UnknownVariable', component: { name: 'X' }, variable: { name: 'Y' } },
      ],
    });
    expect(accepted).toMatchObject({
      key: 'EVSE[main]@1/2.Current[L1]:Target',
      value: '16',
      mutability: undefined,
      characteristics: undefined,
      status: 'Accepted',
    });
    expect(refused).toMatchObject({ key: 'X.Y', value: undefined, status: 'UnknownVariable' });
  });

  it('2.0.1 NotifyReport: one entry per attribute, ReadWrite when no mutability is given', () => {
    const entries = fromReportData([
      {
        component: { name: 'OCPPCommCtrlr' },
        variable: { name: 'HeartbeatInterval' },
        variableAttribute: [{ value: '60' }, { type: 'MinSet', value: '10', mutability: 'ReadOnly' }],
        variableCharacteristics: { dataType: 'integer', supportsMonitoring: false },
      },
      { component: 'not an object', variable: { name: 'Ignored' }, variableAttribute: [{}] },
    ]);
    expect(entries.map(({ key, value, mutability }) => [key, value, mutability])).toEqual([
      ['OCPPCommCtrlr.HeartbeatInterval', '60', 'ReadWrite'],
      ['OCPPCommCtrlr.HeartbeatInterval:MinSet', '10', 'ReadOnly'],
    ]);
    expect(entries[0].characteristics).toEqual({ dataType: 'integer', supportsMonitoring: false });
  });
});
