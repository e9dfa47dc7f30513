import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  type ConfigurationSourceMessage,
  type ControllerConfigurationFilter,
  type ControllerSettingLimits,
  SETTING_LIMIT_KEYS,
} from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { lockWaiters } from '@cpc/testing';
import { type AssetsFleetDatabase, createAssetsFleetDatabase } from '../testing/assets-fleet-database.js';
import { fromGetConfiguration, fromGetVariables, fromReportData } from './configuration-entries.js';
import {
  type ConfigurationReport,
  ControllerConfigurationService,
  type ReportPart,
} from './controller-configuration.service.js';

/**
 * ControllerConfigurationService against real PostgreSQL: how reported entries are stored and updated, 2.0.1
 * NotifyReport parts assembled, the asking command remembered, the list filtered and paged, setting limits read,
 * and another tenant kept out. Time is driven by the `reportedAt` each call takes.
 */

jest.setTimeout(60_000);

let fleet: AssetsFleetDatabase;
let service: ControllerConfigurationService;
let tenantUuid: string;
const otherTenant = randomUUID();
const TTL_MS = ASSETS_SERVICE_TUNING.incompleteReportTtlMs;

let used = 0;
/** A controller of the tenant no other test touches. */
function freshController(): string {
  if (used === fleet.controllers.length) throw new Error('the fleet has no controller left');
  return fleet.controllers[used++];
}

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const at = (milliseconds: number) => new Date(T0 + milliseconds);
/** `at(milliseconds)` as the list shows it (seconds, Z). */
const shown = (milliseconds: number) =>
  at(milliseconds)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');

function report(
  controllerUuid: string,
  message: ConfigurationSourceMessage,
  milliseconds: number,
  commandUuid: string | null = randomUUID(),
  tenant = tenantUuid,
): ConfigurationReport {
  return { tenantUuid: tenant, controllerUuid, message, commandUuid, reportedAt: at(milliseconds) };
}

/** One 2.0.1 reportData item. */
function item(
  component: string | Record<string, unknown>,
  variable: string | Record<string, unknown>,
  variableAttribute: Record<string, unknown>[],
  variableCharacteristics?: Record<string, unknown>,
) {
  return {
    component: typeof component === 'string' ? { name: component } : component,
    variable: typeof variable === 'string' ? { name: variable } : variable,
    variableAttribute,
    ...(variableCharacteristics && { variableCharacteristics }),
  };
}

/** A NotifyReport part of `requestId` received at `milliseconds`. */
function addPart(
  controllerUuid: string,
  milliseconds: number,
  part: Partial<ReportPart> & Pick<ReportPart, 'requestId' | 'seqNo'>,
  tenant = tenantUuid,
): Promise<void> {
  return service.addReportPart(
    { tenantUuid: tenant, controllerUuid, reportedAt: at(milliseconds) },
    { tbc: false, reportData: [], ...part },
  );
}

/** The controller's entries as the list shows them (all on one page). */
async function listed(controllerUuid: string, filter: ControllerConfigurationFilter = {}) {
  return (await service.list(tenantUuid, { controllerUuid, page: 1, limit: 50, filter })).items;
}

/** What the list does not show: the request each entry came from, and its command. */
async function sources(controllerUuid: string) {
  const rows = await fleet.dataSource.query<
    { key: string; source_command_uuid: string | null; source_request_id: number | null }[]
  >(
    `SELECT key, source_command_uuid, source_request_id FROM assets.controller_configuration
      WHERE controller_uuid = $1 ORDER BY key`,
    [controllerUuid],
  );
  return rows.map((row) => [row.key, row.source_request_id, row.source_command_uuid]);
}

/** The report parts held for the controller, as [requestId, seqNo]. */
async function held(controllerUuid: string): Promise<[number, number][]> {
  const rows = await fleet.dataSource.query<{ request_id: number; seq_no: number }[]>(
    `SELECT request_id, seq_no FROM assets.controller_report_parts WHERE controller_uuid = $1
      ORDER BY request_id, seq_no`,
    [controllerUuid],
  );
  return rows.map((row) => [row.request_id, row.seq_no]);
}

async function rowCount(table: string, controllerUuid: string): Promise<number> {
  const [{ count }] = await fleet.dataSource.query<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM assets.${table} WHERE controller_uuid = $1`,
    [controllerUuid],
  );
  return count;
}

beforeAll(async () => {
  fleet = await createAssetsFleetDatabase(26);
  tenantUuid = fleet.tenantUuid;
  service = new ControllerConfigurationService(fleet.dataSource, ASSETS_SERVICE_TUNING);
});

afterAll(async () => {
  await fleet?.drop();
});

describe('storing what a message reported', () => {
  it('stores each 1.6 GetConfiguration key, unknown keys without value, naming message and command', async () => {
    const controller = freshController();
    const command = randomUUID();
    await service.store(
      report(controller, 'GetConfiguration', 1000, command),
      fromGetConfiguration({
        configurationKey: [
          { key: 'HeartbeatInterval', readonly: false, value: '300' },
          { key: 'NumberOfConnectors', readonly: true, value: '2' },
        ],
        unknownKey: ['Nope'],
      }),
    );
    const entry = (key: string, value: string | null, mutability: string | null, status: string) => ({
      key,
      component: null,
      component_instance: null,
      evse_id: null,
      connector_id: null,
      variable: key,
      variable_instance: null,
      attribute_type: null,
      value,
      mutability,
      characteristics: null,
      status,
      source_message: 'GetConfiguration',
      source_command_uuid: command,
      reported_at: shown(1000),
    });
    expect(await listed(controller)).toEqual([
      entry('HeartbeatInterval', '300', 'ReadWrite', 'Accepted'),
      entry('Nope', null, null, 'UnknownKey'),
      entry('NumberOfConnectors', '2', 'ReadOnly', 'Accepted'),
    ]);
    expect(await sources(controller)).toEqual([
      ['HeartbeatInterval', null, command],
      ['Nope', null, command],
      ['NumberOfConnectors', null, command],
    ]);
  });

  it('updates a stored entry: what a message says nothing about (undefined) stays, null clears it', async () => {
    const controller = freshController();
    const characteristics = { dataType: 'integer', unit: 's' };
    await service.store(
      report(controller, 'NotifyReport', 1000),
      fromReportData([
        item(
          'OCPPCommCtrlr',
          'HeartbeatInterval',
          [{ value: '60', mutability: 'ReadOnly' }],
          characteristics,
        ),
        item('OCPPCommCtrlr', 'MessageTimeout', [{ value: '30' }], characteristics),
      ]),
    );
    // A refused GetVariables: no value, no mutability, no characteristics; only status and source change.
    const refused = randomUUID();
    await service.store(
      report(controller, 'GetVariables', 2000, refused),
      fromGetVariables({
        getVariableResult: [
          {
            attributeStatus: 'Rejected',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
          },
        ],
      }),
    );
    const [heartbeat, timeout] = await listed(controller);
    expect(heartbeat).toMatchObject({
      key: 'OCPPCommCtrlr.HeartbeatInterval',
      value: '60',
      mutability: 'ReadOnly',
      characteristics,
      status: 'Rejected',
      source_message: 'GetVariables',
      source_command_uuid: refused,
      reported_at: shown(2000),
    });
    // Not in the message: untouched.
    expect(timeout).toMatchObject({
      value: '30',
      status: 'Accepted',
      source_message: 'NotifyReport',
      reported_at: shown(1000),
    });

    // An accepted GetVariables without a value clears it; mutability and characteristics still stay.
    await service.store(
      report(controller, 'GetVariables', 3000),
      fromGetVariables({
        getVariableResult: [
          {
            attributeStatus: 'Accepted',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
          },
        ],
      }),
    );
    expect((await listed(controller))[0]).toMatchObject({
      value: null,
      mutability: 'ReadOnly',
      characteristics,
      status: 'Accepted',
    });

    // A NotifyReport without characteristics clears them (null) and sets its mutability.
    await service.store(
      report(controller, 'NotifyReport', 4000, null),
      fromReportData([item('OCPPCommCtrlr', 'HeartbeatInterval', [{ value: '90' }])]),
    );
    expect((await listed(controller))[0]).toMatchObject({
      value: '90',
      mutability: 'ReadWrite',
      characteristics: null,
      source_message: 'NotifyReport',
      source_command_uuid: null,
      reported_at: shown(4000),
    });
  });

  it('an older message leaves a newer entry alone but adds new keys; a message as old updates it', async () => {
    const controller = freshController();
    const keys = (value: Record<string, string>) =>
      fromGetConfiguration({
        configurationKey: Object.entries(value).map(([key, v]) => ({ key, value: v })),
      });
    const newest = randomUUID();
    await service.store(report(controller, 'GetConfiguration', 10_000, newest), keys({ A: 'new' }));
    const older = randomUUID();
    await service.store(report(controller, 'GetConfiguration', 5000, older), keys({ A: 'old', B: 'old' }));
    expect(
      (await listed(controller)).map((entry) => [
        entry.key,
        entry.value,
        entry.source_command_uuid,
        entry.reported_at,
      ]),
    ).toEqual([
      ['A', 'new', newest, shown(10_000)],
      ['B', 'old', older, shown(5000)],
    ]);

    const sameTime = randomUUID();
    await service.store(report(controller, 'GetConfiguration', 10_000, sameTime), keys({ A: 'same time' }));
    expect((await listed(controller))[0]).toMatchObject({
      value: 'same time',
      source_command_uuid: sameTime,
    });
  });

  it('a key twice in one message: the last one counts', async () => {
    const controller = freshController();
    await service.store(
      report(controller, 'GetConfiguration', 1000),
      fromGetConfiguration({
        configurationKey: [
          { key: 'MeterValueSampleInterval', value: '10', readonly: true },
          { key: 'MeterValueSampleInterval', value: '20' },
        ],
      }),
    );
    expect((await listed(controller)).map((entry) => [entry.key, entry.value, entry.mutability])).toEqual([
      ['MeterValueSampleInterval', '20', 'ReadWrite'],
    ]);
  });
});

describe('2.0.1 NotifyReport parts', () => {
  it('assembles parts in any order, stored in seqNo order once 0..n is there and n has no tbc', async () => {
    const controller = freshController();
    const requestId = 7;
    // The same variable in the first and the last part: the last part's value counts, though it arrived first.
    await addPart(controller, 1000, {
      requestId,
      seqNo: 2,
      tbc: false,
      reportData: [item('TxCtrlr', 'EVConnectionTimeOut', [{ value: 'from part 2' }])],
    });
    expect(await listed(controller)).toEqual([]);
    await addPart(controller, 2000, {
      requestId,
      seqNo: 0,
      tbc: true,
      reportData: [
        item('TxCtrlr', 'EVConnectionTimeOut', [{ value: 'from part 0' }]),
        item('TxCtrlr', 'TxStartPoint', [{ value: 'PowerPathClosed' }]),
      ],
    });
    // 0 and 2 without 1: not complete.
    expect(await listed(controller)).toEqual([]);
    expect(await held(controller)).toEqual([
      [requestId, 0],
      [requestId, 2],
    ]);

    await addPart(controller, 3000, {
      requestId,
      seqNo: 1,
      tbc: true,
      reportData: [
        item({ name: 'EVSE', evse: { id: 1 } }, 'Power', [
          { value: '22000' },
          { type: 'MaxSet', value: '11000' },
        ]),
      ],
    });
    expect(
      (await listed(controller)).map((entry) => [
        entry.key,
        entry.value,
        entry.source_message,
        entry.reported_at,
      ]),
    ).toEqual([
      ['EVSE@1.Power', '22000', 'NotifyReport', shown(3000)],
      ['EVSE@1.Power:MaxSet', '11000', 'NotifyReport', shown(3000)],
      ['TxCtrlr.EVConnectionTimeOut', 'from part 2', 'NotifyReport', shown(3000)],
      ['TxCtrlr.TxStartPoint', 'PowerPathClosed', 'NotifyReport', shown(3000)],
    ]);
    // Stored once: the parts are gone, the entries name the report (no command known).
    expect(await held(controller)).toEqual([]);
    expect((await sources(controller)).map(([, request, command]) => [request, command])).toEqual(
      Array(4).fill([requestId, null]),
    );
  });

  it('waits while the last part so far says tbc, and holds a part received twice once', async () => {
    const controller = freshController();
    const requestId = 8;
    const part = (seqNo: number, tbc: boolean, value: string) => ({
      requestId,
      seqNo,
      tbc,
      reportData: [item('SampledDataCtrlr', `Variable${seqNo}`, [{ value }])],
    });
    await addPart(controller, 1000, part(0, true, 'a'));
    await addPart(controller, 2000, part(1, true, 'b'));
    await addPart(controller, 3000, part(1, true, 'b again'));
    expect(await listed(controller)).toEqual([]);
    expect(await held(controller)).toEqual([
      [requestId, 0],
      [requestId, 1],
    ]);

    await addPart(controller, 4000, part(2, false, 'c'));
    expect((await listed(controller)).map((entry) => [entry.key, entry.value])).toEqual([
      ['SampledDataCtrlr.Variable0', 'a'],
      ['SampledDataCtrlr.Variable1', 'b'],
      ['SampledDataCtrlr.Variable2', 'c'],
    ]);
    expect(await held(controller)).toEqual([]);
  });

  it('stores a report whose parts all arrive at once (one part at a time per report)', async () => {
    const controller = freshController();
    const count = 8;
    await Promise.all(
      Array.from({ length: count }, (_, seqNo) =>
        addPart(controller, 1000, {
          requestId: 9,
          seqNo,
          tbc: seqNo < count - 1,
          reportData: [item('Part', `Variable${seqNo}`, [{ value: String(seqNo) }])],
        }),
      ),
    );
    expect(await listed(controller)).toHaveLength(count);
    expect(await held(controller)).toEqual([]);
  });

  it("drops parts of the controller's other reports older than incompleteReportTtlMs, not its own", async () => {
    const controller = freshController();
    const neighbour = freshController();
    await addPart(controller, 0, { requestId: 1, seqNo: 0, tbc: true });
    await addPart(neighbour, 0, { requestId: 1, seqNo: 0, tbc: true });

    // Exactly incompleteReportTtlMs old: still kept.
    await addPart(controller, TTL_MS, { requestId: 2, seqNo: 0, tbc: true });
    expect(await held(controller)).toEqual([
      [1, 0],
      [2, 0],
    ]);

    // A millisecond older: dropped; the part of another controller stays.
    await addPart(controller, TTL_MS + 1, { requestId: 3, seqNo: 0, tbc: true });
    expect(await held(controller)).toEqual([
      [2, 0],
      [3, 0],
    ]);
    expect(await held(neighbour)).toEqual([[1, 0]]);

    // A report's own parts never go stale: request 2 completes long after its first part (and request 3 goes).
    await addPart(controller, 3 * TTL_MS, {
      requestId: 2,
      seqNo: 1,
      tbc: false,
      reportData: [item('ClockCtrlr', 'DateTime', [{ value: 'late' }])],
    });
    expect(await held(controller)).toEqual([]);
    expect((await listed(controller)).map((entry) => [entry.key, entry.value])).toEqual([
      ['ClockCtrlr.DateTime', 'late'],
    ]);
  });
});

describe('rememberRequest', () => {
  it('names the asking command on the entries of a report completed after it was remembered', async () => {
    const controller = freshController();
    const command = randomUUID();
    await addPart(controller, 1000, {
      requestId: 21,
      seqNo: 0,
      tbc: true,
      reportData: [item('AuthCtrlr', 'Enabled', [{ value: 'true' }])],
    });
    // GetBaseReport's answer comes between the parts.
    await service.rememberRequest(
      { tenantUuid, controllerUuid: controller, reportedAt: at(1500) },
      21,
      command,
    );
    await addPart(controller, 2000, {
      requestId: 21,
      seqNo: 1,
      reportData: [item('AuthCtrlr', 'AuthorizeRemoteStart', [{ value: 'false' }])],
    });
    expect(await sources(controller)).toEqual([
      ['AuthCtrlr.AuthorizeRemoteStart', 21, command],
      ['AuthCtrlr.Enabled', 21, command],
    ]);
    expect((await listed(controller)).map((entry) => entry.source_command_uuid)).toEqual([command, command]);
  });

  it("names the command on a report stored before it, and only on that report's NotifyReport entries", async () => {
    const controller = freshController();
    const neighbour = freshController();
    const asked = randomUUID();
    const getConfiguration = randomUUID();
    await addPart(neighbour, 1000, {
      requestId: 31,
      seqNo: 0,
      reportData: [item('A', 'X', [{ value: '1' }])],
    });
    await addPart(controller, 1000, {
      requestId: 31,
      seqNo: 0,
      reportData: [item('A', 'X', [{ value: '1' }])],
    });
    await addPart(controller, 1000, {
      requestId: 32,
      seqNo: 0,
      reportData: [item('B', 'X', [{ value: '2' }])],
    });
    await service.store(
      report(controller, 'GetConfiguration', 1000, getConfiguration),
      fromGetConfiguration({ configurationKey: [{ key: 'C', value: '3' }] }),
    );
    await service.store(
      { ...report(controller, 'GetVariables', 1000, null), requestId: 31 },
      fromGetVariables({
        getVariableResult: [
          {
            attributeStatus: 'Accepted',
            attributeValue: '4',
            component: { name: 'D' },
            variable: { name: 'X' },
          },
        ],
      }),
    );
    expect((await sources(controller)).map(([, , command]) => command)).toEqual([
      null,
      null,
      getConfiguration,
      null,
    ]);

    await service.rememberRequest(
      { tenantUuid, controllerUuid: controller, reportedAt: at(2000) },
      31,
      asked,
    );
    expect(await sources(controller)).toEqual([
      ['A.X', 31, asked],
      ['B.X', 32, null],
      ['C', null, getConfiguration],
      // Not a NotifyReport entry, though it carries the request id.
      ['D.X', 31, null],
    ]);
    expect(await sources(neighbour)).toEqual([['A.X', 31, null]]);

    // The first command known for a request stays.
    const later = randomUUID();
    await service.rememberRequest(
      { tenantUuid, controllerUuid: controller, reportedAt: at(3000) },
      31,
      later,
    );
    await addPart(controller, 4000, {
      requestId: 31,
      seqNo: 0,
      reportData: [item('A', 'Y', [{ value: '5' }])],
    });
    expect((await sources(controller)).filter(([key]) => (key as string).startsWith('A.'))).toEqual([
      ['A.X', 31, asked],
      ['A.Y', 31, asked],
    ]);
  });
});

describe('rememberRequest alongside the part that completes the report', () => {
  it('names the command on its entries whichever commits first', async () => {
    const controller = freshController();
    const command = randomUUID();
    await addPart(controller, 1000, {
      requestId: 51,
      seqNo: 0,
      tbc: true,
      reportData: [item('A', 'X', [{}])],
    });
    // Another session holds the held part: the completing transaction stops at removing the parts, after it looked
    // for the request's command and wrote the entries.
    const blocker = fleet.dataSource.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await blocker.query(
      `SELECT 1 FROM assets.controller_report_parts WHERE controller_uuid = $1 AND request_id = 51 FOR UPDATE`,
      [controller],
    );
    try {
      const completing = addPart(controller, 2000, {
        requestId: 51,
        seqNo: 1,
        reportData: [item('A', 'Y', [{}])],
      });
      await lockWaiters(fleet.dataSource, 1);
      const remembering = service.rememberRequest(
        { tenantUuid, controllerUuid: controller, reportedAt: at(1500) },
        51,
        command,
      );
      // It waits for the report's lock (or, without it, is done before the entries are committed).
      await Promise.race([remembering, lockWaiters(fleet.dataSource, 2)]);
      await blocker.commitTransaction();
      await Promise.all([completing, remembering]);
    } finally {
      await blocker.release();
    }
    expect(await sources(controller)).toEqual([
      ['A.X', 51, command],
      ['A.Y', 51, command],
    ]);
  });
});

describe("another tenant's rememberRequest", () => {
  it("names no command on the tenant's entries; the tenant's own names its", async () => {
    const controller = freshController();
    await addPart(controller, 1000, { requestId: 61, seqNo: 0, reportData: [item('A', 'X', [{}])] });
    await service.rememberRequest(
      { tenantUuid: otherTenant, controllerUuid: controller, reportedAt: at(2000) },
      61,
      randomUUID(),
    );
    expect(await sources(controller)).toEqual([['A.X', 61, null]]);
    const command = randomUUID();
    await service.rememberRequest(
      { tenantUuid, controllerUuid: controller, reportedAt: at(3000) },
      61,
      command,
    );
    expect(await sources(controller)).toEqual([['A.X', 61, command]]);
  });
});

describe('the list', () => {
  let controller: string;
  /** Every entry in key order (byte order: '.' < 'E' < 'T'). */
  const ALL = [
    'EVSE@1.Power',
    'EVSE@1.Power:MaxSet',
    'OCPPCommCtrlr.HeartbeatInterval',
    'OCPPCommCtrlr.MessageAttempts[TransactionEvent]',
    'OCPPCommCtrlr.MessageTimeout[Default]',
    'OCPPCommCtrlrExt.MessageLog',
    'TxCtrlr.EVConnectionTimeOut',
    'TxCtrlr.TxStartPoint',
  ];

  beforeAll(async () => {
    controller = freshController();
    await service.store(
      report(controller, 'NotifyReport', 1000, null),
      fromReportData([
        item('TxCtrlr', 'TxStartPoint', [{ value: 'PowerPathClosed' }]),
        item('OCPPCommCtrlrExt', 'MessageLog', [{ value: 'true' }]),
        item('OCPPCommCtrlr', { name: 'MessageTimeout', instance: 'Default' }, [{ value: '30' }]),
        item({ name: 'EVSE', evse: { id: 1 } }, 'Power', [
          { value: '22000' },
          { type: 'MaxSet', value: '11000' },
        ]),
        item('OCPPCommCtrlr', 'HeartbeatInterval', [{ value: '60' }]),
        item('TxCtrlr', 'EVConnectionTimeOut', [{ value: '120' }]),
        item('OCPPCommCtrlr', { name: 'MessageAttempts', instance: 'TransactionEvent' }, [{ value: '3' }]),
      ]),
    );
    // Another controller's entries never show.
    await service.store(
      report(freshController(), 'NotifyReport', 1000, null),
      fromReportData([item('OCPPCommCtrlr', 'HeartbeatInterval', [{ value: '60' }])]),
    );
  });

  const page = (filter: ControllerConfigurationFilter, pageNumber: number, limit: number) =>
    service.list(tenantUuid, { controllerUuid: controller, page: pageNumber, limit, filter });

  it.each([
    ['no filter', {}, ALL],
    ['by component (exactly)', { component: 'OCPPCommCtrlr' }, ALL.slice(2, 5)],
    ['by key prefix', { key_prefix: 'OCPPCommCtrlr' }, ALL.slice(2, 6)],
    // One of each: the prefix narrows the component, the component narrows the prefix.
    [
      'by component and key prefix',
      { component: 'OCPPCommCtrlr', key_prefix: 'OCPPCommCtrlr.Message' },
      ALL.slice(3, 5),
    ],
    [
      'by another component and key prefix',
      { component: 'OCPPCommCtrlrExt', key_prefix: 'OCPP' },
      ALL.slice(5, 6),
    ],
  ])('%s: the matching entries in key order, counted and paged', async (_label, filter, expected) => {
    expect((await listed(controller, filter)).map((entry) => entry.key)).toEqual(expected);
    // A page of one per entry: the count.
    const first = await page(filter, 1, 1);
    expect(first.pagination).toEqual({
      page: 1,
      total_pages: expected.length,
      page_size: 1,
      has_more: expected.length > 1,
    });
    const second = await page(filter, 2, 2);
    expect(second.items.map((entry) => entry.key)).toEqual(expected.slice(2, 4));
    expect(second.pagination).toEqual({
      page: 2,
      total_pages: Math.max(1, Math.ceil(expected.length / 2)),
      page_size: 2,
      has_more: expected.length > 4,
    });
  });

  it('takes page 1 for a page below 1 and 1 to 50 entries a page', async () => {
    const { items, pagination } = await service.list(tenantUuid, {
      controllerUuid: controller,
      page: 0,
      limit: 0,
      filter: {},
    });
    expect(items.map((entry) => entry.key)).toEqual(ALL.slice(0, 1));
    expect(pagination).toEqual({ page: 1, total_pages: ALL.length, page_size: 1, has_more: true });
    const wide = await service.list(tenantUuid, {
      controllerUuid: controller,
      page: -3,
      limit: 500,
      filter: {},
    });
    expect(wide.items).toHaveLength(ALL.length);
    expect(wide.pagination).toEqual({ page: 1, total_pages: 1, page_size: 50, has_more: false });
  });

  it.each([
    ['_', 'Meter_', ['Meter_Values']],
    ['%', 'Meter%', ['Meter%Rate']],
    ['\\', 'Meter\\', ['Meter\\Path']],
  ])('a key prefix with %s matches it literally', async (_label, prefix, expected) => {
    const controller16 = freshController();
    const keys = [
      'Meter%Rate',
      'MeterRate',
      'MeterValuesSampledData',
      'MeterXValues',
      'Meter\\Path',
      'Meter_Values',
    ];
    await service.store(
      report(controller16, 'GetConfiguration', 1000),
      fromGetConfiguration({ configurationKey: keys.map((key) => ({ key, value: '1' })) }),
    );
    expect((await listed(controller16)).map((entry) => entry.key)).toEqual(keys);
    expect((await listed(controller16, { key_prefix: prefix })).map((entry) => entry.key)).toEqual(expected);
    const { pagination } = await service.list(tenantUuid, {
      controllerUuid: controller16,
      page: 1,
      limit: 1,
      filter: { key_prefix: prefix },
    });
    expect(pagination.total_pages).toBe(expected.length);
  });
});

describe('setting limits', () => {
  const NONE = Object.fromEntries(Object.keys(SETTING_LIMIT_KEYS).map((limit) => [limit, null]));

  it('every limit is null while the controller has reported none', async () => {
    expect(await service.settingLimits(tenantUuid, freshController())).toEqual(NONE);
  });

  it('reads each limit from its key: a positive whole number of at most nine digits, else null', async () => {
    const controller = freshController();
    await service.store(
      report(controller, 'GetConfiguration', 1000),
      fromGetConfiguration({
        configurationKey: [
          { key: 'GetConfigurationMaxKeys', value: '20' },
          { key: 'SendLocalListMaxLength', value: ' 7 ' },
        ],
      }),
    );
    const deviceData = (name: string, instance: string, attributes: Record<string, unknown>[]) =>
      item('DeviceDataCtrlr', { name, instance }, attributes);
    await service.store(
      report(controller, 'NotifyReport', 1000, null),
      fromReportData([
        // The Actual attribute counts, not MaxSet.
        deviceData('ItemsPerMessage', 'SetVariables', [{ value: '4' }, { type: 'MaxSet', value: '8' }]),
        deviceData('BytesPerMessage', 'SetVariables', [{ value: '0' }]),
        deviceData('ItemsPerMessage', 'GetVariables', [{ value: '1000000000' }]),
        deviceData('BytesPerMessage', 'GetVariables', [{ value: '999999999' }]),
        item('LocalAuthListCtrlr', 'ItemsPerMessage', [{ value: '2.5' }]),
        item('LocalAuthListCtrlr', 'BytesPerMessage', [{}]),
      ]),
    );
    expect(await service.settingLimits(tenantUuid, controller)).toEqual({
      getConfigurationMaxKeys: 20,
      itemsPerMessageSetVariables: 4,
      bytesPerMessageSetVariables: null,
      itemsPerMessageGetVariables: null,
      bytesPerMessageGetVariables: 999999999,
      sendLocalListMaxLength: 7,
      itemsPerMessageSendLocalList: null,
      bytesPerMessageSendLocalList: null,
    } satisfies ControllerSettingLimits);

    // A negative or non-numeric value is no limit either.
    await service.store(
      report(controller, 'GetConfiguration', 2000),
      fromGetConfiguration({
        configurationKey: [
          { key: 'GetConfigurationMaxKeys', value: '-5' },
          { key: 'SendLocalListMaxLength', value: 'ten' },
        ],
      }),
    );
    expect(await service.settingLimits(tenantUuid, controller)).toMatchObject({
      getConfigurationMaxKeys: null,
      sendLocalListMaxLength: null,
    });
  });
});

describe("another tenant's controller", () => {
  it('stores nothing for it: no entries, no report parts, no request', async () => {
    const controller = freshController();
    await service.store(
      report(controller, 'GetConfiguration', 1000, randomUUID(), otherTenant),
      fromGetConfiguration({ configurationKey: [{ key: 'HeartbeatInterval', value: '300' }] }),
    );
    await addPart(
      controller,
      1000,
      { requestId: 41, seqNo: 0, tbc: true, reportData: [item('A', 'X', [{}])] },
      otherTenant,
    );
    await addPart(
      controller,
      1000,
      { requestId: 42, seqNo: 0, reportData: [item('A', 'Y', [{}])] },
      otherTenant,
    );
    await service.rememberRequest(
      { tenantUuid: otherTenant, controllerUuid: controller, reportedAt: at(1000) },
      42,
      randomUUID(),
    );
    expect(await rowCount('controller_configuration', controller)).toBe(0);
    expect(await rowCount('controller_report_parts', controller)).toBe(0);
    expect(await rowCount('controller_report_requests', controller)).toBe(0);
  });

  it('is not found for the list nor for the setting limits, whatever is stored', async () => {
    const controller = freshController();
    await service.store(
      report(controller, 'GetConfiguration', 1000),
      fromGetConfiguration({ configurationKey: [{ key: 'GetConfigurationMaxKeys', value: '20' }] }),
    );
    await expect(
      service.list(otherTenant, { controllerUuid: controller, page: 1, limit: 10, filter: {} }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.settingLimits(otherTenant, controller)).rejects.toBeInstanceOf(NotFoundError);
    // Its own tenant finds it, also by the upper-case uuid; a uuid no controller has and a non-uuid are not found.
    expect(await listed(controller.toUpperCase())).toHaveLength(1);
    expect((await service.settingLimits(tenantUuid, controller.toUpperCase())).getConfigurationMaxKeys).toBe(
      20,
    );
    await expect(service.settingLimits(tenantUuid, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      service.list(tenantUuid, { controllerUuid: 'not-a-uuid', page: 1, limit: 10, filter: {} }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
