import type { ControllerConfigurationEntryView, ControllerView } from '@cpc/contracts';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  CommandsTestClient,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';

type Protocol = 'ocpp1.6' | 'ocpp2.0.1';

const CALL_TIMEOUT_MS = 3000;

interface ConfigurationPage {
  configuration: ControllerConfigurationEntryView[];
  pagination: { page: number; total_pages: number; page_size: number; has_more: boolean };
}

/**
 * A controller's configuration as real, strict ocpp-rpc charge points (1.6 and 2.0.1) report it: refresh_configuration
 * answers, a 2.0.1 NotifyReport in several parts, the configuration list (paging, filters, tenancy, permission), and
 * the change_configuration and trigger_message commands. Every response is checked against the served OpenAPI
 * document.
 */
describe('controller configuration', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  let data: AssetsTestData;

  let commands: CommandsTestClient;
  const create = (body: Record<string, unknown>) => commands.create(body);
  const ended = (uuid: string) => commands.ended(uuid);

  const configuration = (controller: ControllerView, query = '', as = token) =>
    api.call<ConfigurationPage>(
      'GET',
      `/api/v1/assets/controllers/${controller.uuid}/configuration${query}`,
      {
        token: as,
      },
    );

  const configurationOnceIt = (
    controller: ControllerView,
    accept: (entries: ControllerConfigurationEntryView[]) => boolean,
  ) => eventually(async () => (await configuration(controller, '?limit=50')).body.configuration, accept);

  async function connectedChargePoint(
    protocol: Protocol,
  ): Promise<{ controller: ControllerView; cp: ChargePoint }> {
    const { controller } = await data.site(2);
    const cp = ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity: controller.ocpp_identity,
      password: OCPP_PASSWORD,
      protocols: [protocol],
    });
    await cp.connect();
    await eventually(
      () => api.call('GET', `/api/v1/assets/controllers/${controller.uuid}`, { token }),
      (response) => response.body.controller?.connection_status === 'online',
    );
    return { controller, cp };
  }

  beforeAll(async () => {
    platform = await startPlatformUnderTest({ env: { OCPP_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS) } });
    api = await ApiTestClient.connect(platform.apiUrl);
    token = (await tenantWithUsers(platform, api, 'acme', { operator: 'asset,control' })).operator;
    data = new AssetsTestData(api, token);
    commands = new CommandsTestClient(api, token);
  }, 180_000);

  afterAll(() => platform?.stop());

  describe('ocpp1.6', () => {
    let controller: ControllerView;
    let cp: ChargePoint;

    beforeAll(async () => {
      ({ controller, cp } = await connectedChargePoint('ocpp1.6'));
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
      const key = (name: string, rest: Partial<ControllerConfigurationEntryView>) => ({
        key: name,
        component: null,
        component_instance: null,
        evse_id: null,
        connector_id: null,
        variable: name,
        variable_instance: null,
        attribute_type: null,
        characteristics: null,
        ...source,
        reported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        ...rest,
      });
      expect(entries).toEqual([
        key('AuthorizationKey', { value: null, mutability: 'ReadWrite', status: 'Accepted' }),
        key('GetConfigurationMaxKeys', { value: '2', mutability: 'ReadOnly', status: 'Accepted' }),
        key('HeartbeatInterval', { value: '300', mutability: 'ReadWrite', status: 'Accepted' }),
        key('NumberOfConnectors', { value: '2', mutability: 'ReadOnly', status: 'Accepted' }),
        key('VendorSecretSauce', { value: null, mutability: null, status: 'UnknownKey' }),
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
      expect((await configuration(controller)).body.configuration).toEqual([]);
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
        connector_id: null,
        variable: 'Power',
        attribute_type: 'MaxSet',
        value: '11000',
        mutability: 'ReadWrite',
        characteristics: { unit: 'W', dataType: 'decimal', supportsMonitoring: true },
      });
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
        value: null,
        status: 'UnknownComponent',
      });
    });

    it('pages and filters the list; another tenant and a caller without the permission get 404 and 403', async () => {
      const first = await configuration(controller, '?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.pagination).toEqual({ page: 1, total_pages: 3, page_size: 2, has_more: true });
      const third = await configuration(controller, '?limit=2&page=3');
      expect(third.body.configuration.map((entry) => entry.key)).toEqual([
        'Foo.Bar',
        'OCPPCommCtrlr.HeartbeatInterval',
      ]);
      expect(third.body.pagination).toMatchObject({ page: 3, has_more: false });
      const evse = await configuration(controller, '?filter[component]=EVSE');
      expect(evse.body.configuration.map((entry) => entry.key)).toEqual([
        'EVSE@1.Power',
        'EVSE@1.Power:MaxSet',
      ]);
      const prefix = await configuration(
        controller,
        `?filter[key_prefix]=${encodeURIComponent('EVSE@1.Power:')}`,
      );
      expect(prefix.body.configuration.map((entry) => entry.key)).toEqual(['EVSE@1.Power:MaxSet']);
      const wildcard = await configuration(controller, `?filter[key_prefix]=${encodeURIComponent('%')}`);
      expect(wildcard.body.configuration).toEqual([]);
      const unknown = await configuration(controller, '?order_by=-key');
      expect(unknown.status).toBe(422);

      const other = await tenantWithUsers(platform, api, 'other', { operator: 'asset,control' });
      const foreign = await configuration(controller, '', other.operator);
      expect(foreign.status).toBe(404);
      const { reader } = await tenantWithUsers(platform, api, 'third', { reader: 'control' });
      expect((await configuration(controller, '', reader)).status).toBe(403);
    });
  });
});
