import { buildOcppCalls } from './build-ocpp-call.js';
import {
  DEFAULT_ITEMS_PER_MESSAGE,
  mergeVariableResponses,
  settingResults,
  splitVariableCall,
} from './configuration-changes.js';
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

describe('settingResults of calls not answered', () => {
  it('1.6: a key whose call got no answer has the status of how it ended; the others their answers', () => {
    const calls = ['A', 'B', 'C'].map((key) => ocppCall('ChangeConfiguration', { key, value: '1' }));
    expect(
      settingResults(
        'ocpp1.6',
        calls,
        [{ status: 'Accepted' }, undefined, { status: 'RebootRequired' }],
        new Map([[1, 'CallError']]),
      ),
    ).toEqual([
      { key: 'A', value: '1', status: 'Accepted' },
      { key: 'B', value: '1', status: 'CallError' },
      { key: 'C', value: '1', status: 'RebootRequired' },
    ]);
  });

  it("2.0.1: the settings of each part matched to that part's answer; an unanswered part gives its own status", () => {
    const set = (name: string) => ({ component: { name }, variable: { name: 'V' }, attributeValue: name });
    const calls = [
      ocppCall('SetVariables', { setVariableData: [set('A'), set('B')] }),
      ocppCall('SetVariables', { setVariableData: [set('C')] }),
    ];
    const answer = (name: string, attributeStatus: string) => ({
      attributeStatus,
      component: { name },
      variable: { name: 'V' },
    });
    expect(
      settingResults(
        'ocpp2.0.1',
        calls,
        [{ setVariableResult: [answer('B', 'Rejected'), answer('A', 'Accepted')] }, undefined],
        new Map([[1, 'Timeout']]),
      ).map(({ component, status }) => [component, status]),
    ).toEqual([
      ['A', 'Accepted'],
      ['B', 'Rejected'],
      ['C', 'Timeout'],
    ]);
  });
});

describe('splitVariableCall', () => {
  const variable = (index: number) => ({
    component: { name: 'OCPPCommCtrlr' },
    variable: { name: `Variable${index}` },
    attributeValue: 'x'.repeat(40),
  });
  const setVariables = (count: number) =>
    ocppCall('SetVariables', {
      setVariableData: Array.from({ length: count }, (_, index) => variable(index)),
    });
  const sizes = (calls: { payload: Record<string, unknown> }[], field = 'setVariableData') =>
    calls.map((call) => (call.payload[field] as unknown[]).length);
  const frameBytes = (call: { action: string; payload: unknown }) =>
    Buffer.byteLength(JSON.stringify([2, 'f4a3c1d2-1111-4222-8333-944455556666', call.action, call.payload]));

  it('keeps a request within the items limit whole', () => {
    const call = setVariables(3);
    expect(splitVariableCall(call, { itemsPerMessage: 3, bytesPerMessage: null })).toEqual([call]);
  });

  it('splits by ItemsPerMessage, in order', () => {
    const parts = splitVariableCall(setVariables(5), { itemsPerMessage: 2, bytesPerMessage: null });
    expect(sizes(parts)).toEqual([2, 2, 1]);
    expect(parts.flatMap((part) => part.payload.setVariableData as unknown[])).toEqual(
      setVariables(5).payload.setVariableData,
    );
  });

  it('splits by BytesPerMessage: every frame (message id included) within the limit', () => {
    const whole = setVariables(6);
    const limit = Math.floor(frameBytes(whole) / 3);
    const parts = splitVariableCall(whole, { itemsPerMessage: 10, bytesPerMessage: limit });
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) expect(frameBytes(part)).toBeLessThanOrEqual(limit);
    expect(parts.flatMap((part) => part.payload.setVariableData as unknown[])).toEqual(
      whole.payload.setVariableData,
    );
  });

  it('sends a variable larger than the byte limit alone', () => {
    expect(sizes(splitVariableCall(setVariables(3), { itemsPerMessage: null, bytesPerMessage: 10 }))).toEqual(
      [1, 1, 1],
    );
  });

  it(`uses ${DEFAULT_ITEMS_PER_MESSAGE} variables per message while the limit is unknown`, () => {
    const many = ocppCall('GetVariables', {
      getVariableData: Array.from({ length: DEFAULT_ITEMS_PER_MESSAGE + 1 }, (_, index) => variable(index)),
    });
    expect(
      sizes(splitVariableCall(many, { itemsPerMessage: null, bytesPerMessage: null }), 'getVariableData'),
    ).toEqual([DEFAULT_ITEMS_PER_MESSAGE, 1]);
  });

  it('leaves other calls alone', () => {
    const call = ocppCall('ChangeConfiguration', { key: 'A', value: '1' });
    expect(splitVariableCall(call, { itemsPerMessage: 1, bytesPerMessage: 1 })).toEqual([call]);
  });
});

describe('mergeVariableResponses', () => {
  it('one answer stays as received', () => {
    const response = { getVariableResult: [], extra: true };
    expect(mergeVariableResponses('GetVariables', [response])).toBe(response);
  });

  it("several parts' results become one list, in order, without the parts not answered", () => {
    expect(
      mergeVariableResponses('SetVariables', [
        { setVariableResult: [{ n: 1 }, { n: 2 }] },
        undefined,
        { setVariableResult: [{ n: 3 }] },
      ]),
    ).toEqual({ setVariableResult: [{ n: 1 }, { n: 2 }, { n: 3 }] });
  });
});
