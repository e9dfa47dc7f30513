import type { ControllerView, PlugView } from '@cpc/contracts';
import type {
  CommandParameters,
  components,
  CreateCommandRequest,
  operations,
  PlatformClient,
} from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  createRpcError,
  eventually,
  onlineChargePoint,
  OpenApiResponseValidator,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';
import { createdCommand, endedCommand, issuesOf, sdkTestUser } from './support/sdk-test-client.js';

type Protocol = 'ocpp1.6' | 'ocpp2.0.1';
type ConfigurationEntry = components['schemas']['ControllerConfigurationEntryBody'];
type ConfigurationQuery = NonNullable<operations['getControllerConfiguration']['parameters']['query']>;

const CALL_TIMEOUT_MS = 3000;

/** Answers `action` on `cp` with `answer(n)` for the n-th call (from 1); returns the payloads received, in order. */
function recordCalls(cp: ChargePoint, action: string, answer: (n: number) => unknown): unknown[] {
  const received: unknown[] = [];
  cp.handle(action, ({ params }) => {
    received.push(params);
    return answer(received.length);
  });
  return received;
}

/**
 * A controller's configuration as real, strict ocpp-rpc charge points (1.6 and 2.0.1) report it: refresh_configuration
 * answers, a 2.0.1 NotifyReport in several parts, the configuration list (paging, filters, tenancy, permission), and
 * the change_configuration, trigger_message and get_local_list_version commands. The API is used through the typed SDK
 * (libs/sdk), every response checked against the served OpenAPI document.
 */
describe('controller configuration', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  let data: AssetsTestData;
  let validator: OpenApiResponseValidator;
  /** acme's operator (assets and control), by the SDK. */
  let operator: PlatformClient;

  const create = (body: CreateCommandRequest) => createdCommand(operator, body);
  const ended = (uuid: string) => endedCommand(operator, uuid);
  const changeConfiguration = (
    controller: ControllerView,
    settings: CommandParameters<'change_configuration'>['settings'],
  ) =>
    create({
      type: 'change_configuration',
      target_type: 'controller',
      target_uuid: controller.uuid,
      parameters: { settings },
    });

  /** A get_local_list_version the charge point answers with `answer`: the calls it received and the ended command. */
  const getLocalListVersion = async (cp: ChargePoint, controller: ControllerView, answer: unknown) => {
    const received = recordCalls(cp, 'GetLocalListVersion', () => answer);
    const command = await create({
      type: 'get_local_list_version',
      target_type: 'controller',
      target_uuid: controller.uuid,
    });
    return { received, done: await ended(command.command_uuid) };
  };

  /** A create the document allows but the platform refuses for this charge point: 422 and exactly one error. */
  const expectRefused = async (body: CreateCommandRequest, errorKey: string, parameter: string) => {
    const { error, response } = await operator.api.POST('/api/v1/control/commands', { body });
    expect(response.status).toBe(422);
    expect(issuesOf(error)).toEqual([expect.objectContaining({ errorKey, parameter })]);
  };

  const configuration = (controller: ControllerView, query: ConfigurationQuery = {}, as = operator) =>
    as.api.GET('/api/v1/assets/controllers/{uuid}/configuration', {
      params: { path: { uuid: controller.uuid }, query },
    });

  const configurationOnceIt = (
    controller: ControllerView,
    accept: (entries: ConfigurationEntry[]) => boolean,
  ) => eventually(async () => (await configuration(controller, { limit: 50 })).data!.configuration, accept);

  async function connectedChargePoint(
    protocol: Protocol,
  ): Promise<{ controller: ControllerView; plugs: PlugView[]; cp: ChargePoint }> {
    const { controller, plugs } = await data.site(2);
    const cp = await onlineChargePoint({
      ocppUrl: platform.ocppUrl,
      api,
      token: token,
      controller,
      protocol,
    });
    return { controller, plugs, cp };
  }

  beforeAll(async () => {
    platform = await startPlatformUnderTest({ env: { OCPP_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS) } });
    api = await ApiTestClient.connect(platform.apiUrl);
    token = (await tenantWithUsers(platform, api, 'acme', { operator: 'asset,control' })).operator;
    data = new AssetsTestData(api, token);
    validator = await OpenApiResponseValidator.fetch(platform.apiUrl);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator', validator);
  }, 180_000);

  afterAll(() => platform?.stop());

  describe('ocpp1.6', () => {
    let controller: ControllerView;
    let plugs: PlugView[];
    let cp: ChargePoint;

    beforeAll(async () => {
      ({ controller, plugs, cp } = await connectedChargePoint('ocpp1.6'));
    });

    afterAll(() => cp?.close({ force: true }));

    it('refresh_configuration stores every key of the GetConfiguration answer, unknown keys too', async () => {
      const answer = {
        configurationKey: [
          { key: 'HeartbeatInterval', readonly: false, value: '300' },
          { key: 'NumberOfConnectors', readonly: true, value: '2' },
          { key: 'GetConfigurationMaxKeys', readonly: true, value: '2' },
          { key: 'AuthorizationKey', readonly: false },
        ],
        unknownKey: ['VendorSecretSauce'],
      };
      cp.handle('GetConfiguration', () => answer);
      const command = await create({
        type: 'refresh_configuration',
        target_type: 'controller',
        target_uuid: controller.uuid,
      });
      const done = await ended(command.command_uuid);
      expect(done).toMatchObject({ status: 'accepted', result: { status: 'Accepted', response: answer } });
      const entries = await configurationOnceIt(controller, (found) => found.length === 5);
      const source = { source_message: 'GetConfiguration', source_command_uuid: command.command_uuid };
      const key = (name: string, rest: Partial<ConfigurationEntry>) => ({
        key: name,
        component: undefined,
        component_instance: undefined,
        evse_id: undefined,
        connector_id: undefined,
        variable: name,
        variable_instance: undefined,
        attribute_type: undefined,
        characteristics: undefined,
        ...source,
        reported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        ...rest,
      });
      expect(entries).toEqual([
        key('AuthorizationKey', { value: undefined, mutability: 'ReadWrite', status: 'Accepted' }),
        key('GetConfigurationMaxKeys', { value: '2', mutability: 'ReadOnly', status: 'Accepted' }),
        key('HeartbeatInterval', { value: '300', mutability: 'ReadWrite', status: 'Accepted' }),
        key('NumberOfConnectors', { value: '2', mutability: 'ReadOnly', status: 'Accepted' }),
        key('VendorSecretSauce', { value: undefined, mutability: undefined, status: 'UnknownKey' }),
      ]);
    });
    it('change_configuration: one ChangeConfiguration per key in order; a reboot is still accepted; stored values follow', async () => {
      const answers = [{ status: 'Accepted' }, { status: 'RebootRequired' }];
      const received = recordCalls(
        cp,
        'ChangeConfiguration',
        (n) => answers[n - 1] ?? { status: 'Rejected' },
      );
      const command = await changeConfiguration(controller, [
        { key: 'HeartbeatInterval', value: '60' },
        { key: 'AuthorizationKey', value: '0011aabb' },
      ]);
      const done = await ended(command.command_uuid);
      expect(received).toEqual([
        { key: 'HeartbeatInterval', value: '60' },
        { key: 'AuthorizationKey', value: '0011aabb' },
      ]);
      expect(done.status).toBe('accepted');
      expect(done.result).toEqual({
        status: 'RebootRequired',
        response: { responses: answers },
        settings: [
          { key: 'HeartbeatInterval', value: '60', status: 'Accepted' },
          { key: 'AuthorizationKey', value: '0011aabb', status: 'RebootRequired' },
        ],
      });
      const entries = await configurationOnceIt(controller, (found) =>
        found.some((entry) => entry.key === 'AuthorizationKey' && entry.value === '0011aabb'),
      );
      expect(entries.find((entry) => entry.key === 'HeartbeatInterval')).toMatchObject({
        value: '60',
        mutability: 'ReadWrite',
        status: 'Accepted',
        source_message: 'ChangeConfiguration',
        source_command_uuid: command.command_uuid,
      });
      expect(entries.find((entry) => entry.key === 'AuthorizationKey')).toMatchObject({
        status: 'RebootRequired',
      });
    });

    it('change_configuration: a refused key rejects the command and leaves its stored value', async () => {
      cp.handle('ChangeConfiguration', () => ({ status: 'Rejected' }));
      const command = await changeConfiguration(controller, [{ key: 'HeartbeatInterval', value: '5' }]);
      const done = await ended(command.command_uuid);
      expect([done.status, done.result?.status]).toEqual(['rejected', 'Rejected']);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const entries = (await configuration(controller, { 'filter[key_prefix]': 'Heartbeat' })).data!
        .configuration;
      expect(entries).toEqual([expect.objectContaining({ key: 'HeartbeatInterval', value: '60' })]);
    });

    it('change_configuration: at most GetConfigurationMaxKeys settings, and only keys on 1.6', async () => {
      await expectRefused(
        {
          type: 'change_configuration',
          target_type: 'controller',
          target_uuid: controller.uuid,
          parameters: {
            settings: [
              { key: 'A', value: '1' },
              { key: 'B', value: '2' },
              { key: 'C', value: '3' },
            ],
          },
        },
        'out_of_range',
        'parameters.settings',
      );
      const variables = await changeConfiguration(controller, [
        { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '60' },
      ]);
      expect(await ended(variables.command_uuid)).toMatchObject({
        status: 'failed',
        result: { error: 'invalid_parameters' },
      });
    });

    it('trigger_message asks a connector for its status', async () => {
      const received = recordCalls(cp, 'TriggerMessage', () => ({ status: 'Accepted' }));
      const command = await create({
        type: 'trigger_message',
        target_type: 'connector',
        target_uuid: plugs[1].uuid,
        parameters: { message: 'status_notification' },
      });
      expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
      expect(received).toEqual([{ requestedMessage: 'StatusNotification', connectorId: 2 }]);
      await expectRefused(
        {
          type: 'trigger_message',
          target_type: 'connector',
          target_uuid: plugs[1].uuid,
          parameters: { message: 'heartbeat' },
        },
        'not_allowed',
        'parameters.message',
      );
    });

    it('get_local_list_version: the answer settles the command and is kept in result.response', async () => {
      const { received, done } = await getLocalListVersion(cp, controller, { listVersion: 7 });
      expect(received).toEqual([{}]);
      expect(done).toMatchObject({
        status: 'accepted',
        result: { status: 'Accepted', response: { listVersion: 7 } },
      });
      // Untyped escape: a target type the document does not allow for this command, which the typed client cannot
      // express; the answer is still checked against the document.
      const onConnector = await api.call('POST', '/api/v1/control/commands', {
        token,
        body: { type: 'get_local_list_version', target_type: 'connector', target_uuid: plugs[0].uuid },
      });
      expect(onConnector.status).toBe(422);
      expect(onConnector.body.errors).toEqual([
        expect.objectContaining({ errorKey: 'invalid_target_type', parameter: 'type' }),
      ]);
    });
  });

  describe('ocpp2.0.1', () => {
    let controller: ControllerView;
    let cp: ChargePoint;

    beforeAll(async () => {
      ({ controller, cp } = await connectedChargePoint('ocpp2.0.1'));
    });

    afterAll(() => cp?.close({ force: true }));

    it('refresh_configuration assembles a NotifyReport sent in several parts, in any order, then stores it', async () => {
      let requestId = 0;
      cp.handle('GetBaseReport', ({ params }) => {
        requestId = (params as { requestId: number }).requestId;
        return { status: 'Accepted' };
      });
      const command = await create({
        type: 'refresh_configuration',
        target_type: 'controller',
        target_uuid: controller.uuid,
      });
      expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
      const generatedAt = new Date().toISOString();
      const part = (seqNo: number, tbc: boolean, reportData: unknown[]) =>
        cp.call('NotifyReport', { requestId, generatedAt, seqNo, tbc, reportData });
      await part(0, true, [
        {
          component: { name: 'OCPPCommCtrlr' },
          variable: { name: 'HeartbeatInterval' },
          variableAttribute: [{ type: 'Actual', value: '300', mutability: 'ReadWrite' }],
          variableCharacteristics: { unit: 's', dataType: 'integer', minLimit: 1, supportsMonitoring: false },
        },
      ]);
      await part(2, false, [
        {
          component: { name: 'DeviceDataCtrlr' },
          variable: { name: 'ItemsPerMessage', instance: 'SetVariables' },
          variableAttribute: [{ value: '2', mutability: 'ReadOnly' }],
          variableCharacteristics: { dataType: 'integer', supportsMonitoring: false },
        },
      ]);
      // Part 1 is missing: nothing is stored yet.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await configuration(controller)).data!.configuration).toEqual([]);
      await part(1, true, [
        {
          component: { name: 'EVSE', evse: { id: 1 } },
          variable: { name: 'Power' },
          variableAttribute: [
            { type: 'Actual', value: '7200', mutability: 'ReadOnly' },
            { type: 'MaxSet', value: '11000' },
          ],
          variableCharacteristics: { unit: 'W', dataType: 'decimal', supportsMonitoring: true },
        },
        {
          component: { name: 'Connector', evse: { id: 1, connectorId: 1 } },
          variable: { name: 'AvailabilityState' },
          variableAttribute: [{ value: 'Available', mutability: 'ReadOnly' }],
          variableCharacteristics: { dataType: 'OptionList', supportsMonitoring: true },
        },
      ]);
      const entries = await configurationOnceIt(controller, (found) => found.length === 5);
      expect(entries.map((entry) => entry.key)).toEqual([
        'Connector@1/1.AvailabilityState',
        'DeviceDataCtrlr.ItemsPerMessage[SetVariables]',
        'EVSE@1.Power',
        'EVSE@1.Power:MaxSet',
        'OCPPCommCtrlr.HeartbeatInterval',
      ]);
      for (const entry of entries) {
        expect(entry).toMatchObject({
          source_message: 'NotifyReport',
          source_command_uuid: command.command_uuid,
          status: 'Accepted',
        });
      }
      expect(entries[3]).toMatchObject({
        component: 'EVSE',
        evse_id: 1,
        variable: 'Power',
        attribute_type: 'MaxSet',
        value: '11000',
        mutability: 'ReadWrite',
        characteristics: { unit: 'W', dataType: 'decimal', supportsMonitoring: true },
      });
      expect(entries[3]).not.toHaveProperty('connector_id');
      expect(entries[0]).toMatchObject({ component: 'Connector', evse_id: 1, connector_id: 1 });
      expect(entries[1]).toMatchObject({
        variable_instance: 'SetVariables',
        value: '2',
        mutability: 'ReadOnly',
      });
    });

    it('refresh_configuration with keys stores the GetVariables results, keeping what they do not say', async () => {
      cp.handle('GetVariables', () => ({
        getVariableResult: [
          {
            attributeStatus: 'Accepted',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
            attributeValue: '120',
          },
          { attributeStatus: 'UnknownComponent', component: { name: 'Foo' }, variable: { name: 'Bar' } },
        ],
      }));
      const command = await create({
        type: 'refresh_configuration',
        target_type: 'controller',
        target_uuid: controller.uuid,
        parameters: { keys: ['OCPPCommCtrlr.HeartbeatInterval', 'Foo.Bar'] },
      });
      expect(await ended(command.command_uuid)).toMatchObject({ status: 'accepted' });
      const entries = await configurationOnceIt(controller, (found) => found.length === 6);
      expect(entries.find((entry) => entry.key === 'OCPPCommCtrlr.HeartbeatInterval')).toMatchObject({
        value: '120',
        mutability: 'ReadWrite',
        characteristics: { unit: 's' },
        source_message: 'GetVariables',
        source_command_uuid: command.command_uuid,
      });
      expect(entries.find((entry) => entry.key === 'Foo.Bar')).toMatchObject({
        status: 'UnknownComponent',
      });
      expect(entries.find((entry) => entry.key === 'Foo.Bar')).not.toHaveProperty('value');
    });

    it('change_configuration: one SetVariables, per-setting results, at most ItemsPerMessageSetVariables', async () => {
      const received = recordCalls(cp, 'SetVariables', () => ({
        setVariableResult: [
          {
            attributeStatus: 'RebootRequired',
            attributeType: 'MaxSet',
            component: { name: 'EVSE', evse: { id: 1 } },
            variable: { name: 'Power' },
          },
          {
            attributeStatus: 'Accepted',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
          },
        ],
      }));
      const command = await changeConfiguration(controller, [
        { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '90' },
        { component: 'EVSE', evse_id: 1, variable: 'Power', attribute_type: 'MaxSet', value: '7400' },
      ]);
      const done = await ended(command.command_uuid);
      expect(received).toEqual([
        {
          setVariableData: [
            {
              attributeValue: '90',
              component: { name: 'OCPPCommCtrlr' },
              variable: { name: 'HeartbeatInterval' },
            },
            {
              attributeType: 'MaxSet',
              attributeValue: '7400',
              component: { name: 'EVSE', evse: { id: 1 } },
              variable: { name: 'Power' },
            },
          ],
        },
      ]);
      expect(done.status).toBe('accepted');
      expect(done.result?.status).toBe('RebootRequired');
      expect(done.result?.settings).toEqual([
        {
          component: 'OCPPCommCtrlr',
          variable: 'HeartbeatInterval',
          attribute_type: 'Actual',
          value: '90',
          status: 'Accepted',
        },
        {
          component: 'EVSE',
          evse_id: 1,
          variable: 'Power',
          attribute_type: 'MaxSet',
          value: '7400',
          status: 'RebootRequired',
        },
      ]);
      const entries = await configurationOnceIt(controller, (found) =>
        found.some((entry) => entry.key === 'EVSE@1.Power:MaxSet' && entry.value === '7400'),
      );
      expect(entries.find((entry) => entry.key === 'OCPPCommCtrlr.HeartbeatInterval')).toMatchObject({
        value: '90',
        source_message: 'SetVariables',
        source_command_uuid: command.command_uuid,
      });
      await expectRefused(
        {
          type: 'change_configuration',
          target_type: 'controller',
          target_uuid: controller.uuid,
          parameters: {
            settings: ['A', 'B', 'C'].map((variable) => ({ component: 'X', variable, value: '1' })),
          },
        },
        'out_of_range',
        'parameters.settings',
      );
    });

    it('trigger_message asks the station for a heartbeat; a refusal rejects the command', async () => {
      const received = recordCalls(cp, 'TriggerMessage', () => ({ status: 'NotImplemented' }));
      const command = await create({
        type: 'trigger_message',
        target_type: 'controller',
        target_uuid: controller.uuid,
        parameters: { message: 'heartbeat' },
      });
      const done = await ended(command.command_uuid);
      expect(received).toEqual([{ requestedMessage: 'Heartbeat' }]);
      expect(done).toMatchObject({ status: 'rejected', result: { status: 'NotImplemented' } });
    });

    it('get_local_list_version: versionNumber in result.response', async () => {
      const { received, done } = await getLocalListVersion(cp, controller, { versionNumber: 0 });
      expect(received).toEqual([{}]);
      expect(done).toMatchObject({
        status: 'accepted',
        result: { status: 'Accepted', response: { versionNumber: 0 } },
      });
    });

    it('pages and filters the list; another tenant and a caller without the permission get 404 and 403', async () => {
      const keysOf = (page: { configuration: ConfigurationEntry[] } | undefined) =>
        page!.configuration.map((entry) => entry.key);
      const first = await configuration(controller, { limit: 2 });
      expect(first.response.status).toBe(200);
      expect(first.data!.pagination).toEqual({ page: 1, total_pages: 3, page_size: 2, has_more: true });
      const third = await configuration(controller, { limit: 2, page: 3 });
      expect(keysOf(third.data)).toEqual(['Foo.Bar', 'OCPPCommCtrlr.HeartbeatInterval']);
      expect(third.data!.pagination).toMatchObject({ page: 3, has_more: false });
      const evse = await configuration(controller, { 'filter[component]': 'EVSE' });
      expect(keysOf(evse.data)).toEqual(['EVSE@1.Power', 'EVSE@1.Power:MaxSet']);
      const prefix = await configuration(controller, { 'filter[key_prefix]': 'EVSE@1.Power:' });
      expect(keysOf(prefix.data)).toEqual(['EVSE@1.Power:MaxSet']);
      const wildcard = await configuration(controller, { 'filter[key_prefix]': '%' });
      expect(wildcard.data!.configuration).toEqual([]);
      // Untyped escape: order_by is no parameter of this list in the document, so the typed client cannot send it.
      const unknown = await operator.api.GET('/api/v1/assets/controllers/{uuid}/configuration', {
        params: { path: { uuid: controller.uuid } },
        querySerializer: () => 'order_by=-key',
      });
      expect(unknown.response.status).toBe(422);

      await tenantWithUsers(platform, api, 'other', { operator: 'asset,control' });
      const foreign = await configuration(
        controller,
        {},
        await sdkTestUser(platform.apiUrl, 'other', 'operator', validator),
      );
      expect(foreign.response.status).toBe(404);
      await tenantWithUsers(platform, api, 'third', { reader: 'control' });
      const reader = await sdkTestUser(platform.apiUrl, 'third', 'reader', validator);
      expect((await configuration(controller, {}, reader)).response.status).toBe(403);
      // Two tenants and their users created (password hashing) on top of the reads: more than the default on a busy
      // machine.
    }, 180_000);
  });
  describe('calls the charge point does not answer, and 2.0.1 messages split by its limits', () => {
    it('1.6 change_configuration: a key without an answer does not stop the next one; each has its status', async () => {
      const { controller, cp } = await connectedChargePoint('ocpp1.6');
      try {
        const received = recordCalls(cp, 'ChangeConfiguration', (n) => {
          if (n === 1) throw createRpcError('NotSupported', 'not on this model');
          return { status: 'Accepted' };
        });
        const command = await changeConfiguration(controller, [
          { key: 'HeartbeatInterval', value: '61' },
          { key: 'MeterValueSampleInterval', value: '30' },
        ]);
        const done = await ended(command.command_uuid);
        expect(received).toHaveLength(2);
        expect(done.status).toBe('rejected');
        expect(done.result).toEqual({
          status: 'CallError',
          response: { responses: [null, { status: 'Accepted' }] },
          settings: [
            { key: 'HeartbeatInterval', value: '61', status: 'CallError' },
            { key: 'MeterValueSampleInterval', value: '30', status: 'Accepted' },
          ],
        });
        const entries = await configurationOnceIt(controller, (found) => found.length > 0);
        expect(entries).toEqual([
          expect.objectContaining({ key: 'MeterValueSampleInterval', value: '30', status: 'Accepted' }),
        ]);
      } finally {
        await cp.close({ force: true });
      }
    });

    it('2.0.1: GetVariables and SetVariables in parts by ItemsPerMessage / BytesPerMessage, answers merged', async () => {
      const { controller, cp } = await connectedChargePoint('ocpp2.0.1');
      try {
        // The station's limits, as its base report tells them: one variable per GetVariables, 400 bytes per SetVariables.
        let requestId = 0;
        cp.handle('GetBaseReport', ({ params }) => {
          requestId = (params as { requestId: number }).requestId;
          return { status: 'Accepted' };
        });
        const report = await create({
          type: 'refresh_configuration',
          target_type: 'controller',
          target_uuid: controller.uuid,
        });
        expect(await ended(report.command_uuid)).toMatchObject({ status: 'accepted' });
        const limit = (variable: string, instance: string, value: string) => ({
          component: { name: 'DeviceDataCtrlr' },
          variable: { name: variable, instance },
          variableAttribute: [{ value, mutability: 'ReadOnly' }],
        });
        await cp.call('NotifyReport', {
          requestId,
          generatedAt: new Date().toISOString(),
          seqNo: 0,
          reportData: [
            limit('ItemsPerMessage', 'GetVariables', '1'),
            limit('BytesPerMessage', 'SetVariables', '400'),
          ],
        });
        await configurationOnceIt(controller, (found) => found.length === 2);

        const gets = recordCalls(cp, 'GetVariables', (n) => ({
          getVariableResult: [
            n === 1
              ? {
                  attributeStatus: 'Accepted',
                  component: { name: 'OCPPCommCtrlr' },
                  variable: { name: 'HeartbeatInterval' },
                  attributeValue: '120',
                }
              : {
                  attributeStatus: 'UnknownComponent',
                  component: { name: 'Foo' },
                  variable: { name: 'Bar' },
                },
          ],
        }));
        const refresh = await create({
          type: 'refresh_configuration',
          target_type: 'controller',
          target_uuid: controller.uuid,
          parameters: { keys: ['OCPPCommCtrlr.HeartbeatInterval', 'Foo.Bar'] },
        });
        const refreshed = await ended(refresh.command_uuid);
        expect(gets).toEqual([
          {
            getVariableData: [
              { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } },
            ],
          },
          { getVariableData: [{ component: { name: 'Foo' }, variable: { name: 'Bar' } }] },
        ]);
        expect(refreshed.status).toBe('accepted');
        expect(refreshed.result?.response).toEqual({
          getVariableResult: [
            expect.objectContaining({ attributeValue: '120' }),
            expect.objectContaining({ attributeStatus: 'UnknownComponent' }),
          ],
        });
        await configurationOnceIt(controller, (found) => found.length === 4);

        const sets = recordCalls(cp, 'SetVariables', (n) => {
          if (n === 2) throw createRpcError('InternalError', 'busy');
          return {
            setVariableResult: [
              {
                attributeStatus: 'Accepted',
                component: { name: 'OCPPCommCtrlr' },
                variable: { name: 'HeartbeatInterval' },
              },
            ],
          };
        });
        const long = (letter: string) => letter.repeat(150);
        const change = await changeConfiguration(controller, [
          { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: long('a') },
          { component: 'OCPPCommCtrlr', variable: 'MessageTimeout', value: long('b') },
        ]);
        const changed = await ended(change.command_uuid);
        expect(
          sets.map((payload) => (payload as { setVariableData: unknown[] }).setVariableData.length),
        ).toEqual([1, 1]);
        expect(changed.status).toBe('rejected');
        expect(changed.result?.status).toBe('CallError');
        expect(changed.result?.settings).toEqual([
          expect.objectContaining({ variable: 'HeartbeatInterval', status: 'Accepted' }),
          expect.objectContaining({ variable: 'MessageTimeout', status: 'CallError' }),
        ]);
        expect(changed.result?.response).toEqual({
          setVariableResult: [expect.objectContaining({ attributeStatus: 'Accepted' })],
        });
      } finally {
        await cp.close({ force: true });
      }
    });
  });
});
