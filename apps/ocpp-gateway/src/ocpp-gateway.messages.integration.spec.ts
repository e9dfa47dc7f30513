import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  CHARGE_POINT_PRESENCE_BUCKET,
  GATEWAY_INSTANCES_BUCKET,
  ChargePointEventSubjects as Subjects,
  TelemetryEventSubjects,
} from '@cpc/contracts';
import { EventRecorder, eventually, startNatsTestServer } from '@cpc/testing';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  type ChargePoint,
  chargePoint,
  type FakeController,
  FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayForTest,
  startGatewayTestRig,
} from './testing/ocpp-gateway-test-bed.js';
import { gatewayInstanceKey } from './connections/charge-point-presence.registry.js';

describe('ocpp-gateway: what charge points send', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  let client: NatsConnection;
  const open: ChargePoint[] = [];

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_GATEWAY_INSTANCE_ID: 'gw-messages' });
    ({ gateway, services, events } = rig);
    client = await connect({ servers: rig.nats.url });
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((cp) => cp.close({ force: true })));
  });

  afterAll(async () => {
    await client?.close();
    await rig?.stop();
  });

  async function connected(
    protocol: 'ocpp1.6' | 'ocpp2.0.1',
    identity: string,
  ): Promise<{ cp: ChargePoint; controller: FakeController }> {
    const controller = services.addController({
      tenantSlug: 'acme',
      identity,
      password: 'a-very-secret-password-1',
    });
    const cp = chargePoint({ port: gateway.ocppPort, controller, protocols: [protocol] });
    open.push(cp);
    await cp.connect();
    expect(cp.protocol).toBe(protocol);
    return { cp, controller };
  }

  describe.each(['ocpp1.6', 'ocpp2.0.1'] as const)('%s', (protocol) => {
    const v = protocol === 'ocpp1.6' ? '16' : '201';

    it('announces the connection (event and presence registry) and withdraws it on close', async () => {
      const { cp, controller } = await connected(protocol, `CP-PRESENCE-${v}`);
      const connectedEvent = await events.waitFor(
        Subjects.connected,
        (data) => data.controllerUuid === controller.controllerUuid,
      );
      expect(connectedEvent.tenantUuid).toBe(controller.tenantUuid);
      expect(connectedEvent.data).toMatchObject({
        ocppIdentity: controller.identity,
        protocol,
        gatewayInstance: 'gw-messages',
        connectionId: expect.any(String),
      });
      const presence = await new Kvm(client).open(CHARGE_POINT_PRESENCE_BUCKET);
      const entry = await presence.get(controller.controllerUuid);
      expect(entry?.json()).toMatchObject({
        controllerUuid: controller.controllerUuid,
        tenantUuid: controller.tenantUuid,
        protocol,
        gatewayInstance: 'gw-messages',
        connectionId: connectedEvent.data.connectionId,
      });

      await cp.close({ code: 1000 });
      const disconnected = await events.waitFor(
        Subjects.disconnected,
        (data) => data.controllerUuid === controller.controllerUuid,
      );
      expect(disconnected.data).toMatchObject({
        connectionId: connectedEvent.data.connectionId,
        gatewayInstance: 'gw-messages',
      });
      await eventually(
        async () => (await presence.get(controller.controllerUuid))?.operation !== 'PUT',
        Boolean,
        { timeoutMs: 5000, intervalMs: 20 },
      );
    });

    it('accepts a BootNotification with the configured interval and passes the boot info on', async () => {
      const { cp, controller } = await connected(protocol, `CP-BOOT-${v}`);
      const answer =
        protocol === 'ocpp1.6'
          ? await cp.call('BootNotification', {
              chargePointVendor: 'Acme',
              chargePointModel: 'Wallbox 2',
              chargePointSerialNumber: 'SN-1',
              firmwareVersion: '1.2.3',
            })
          : await cp.call('BootNotification', {
              reason: 'PowerUp',
              chargingStation: {
                vendorName: 'Acme',
                model: 'Wallbox 2',
                serialNumber: 'SN-1',
                firmwareVersion: '1.2.3',
              },
            });
      expect(answer).toMatchObject({ status: 'Accepted', interval: 120, currentTime: expect.any(String) });
      const booted = await events.waitFor(
        Subjects.booted,
        (data) => data.controllerUuid === controller.controllerUuid,
      );
      expect(booted.data).toEqual({
        controllerUuid: controller.controllerUuid,
        ocppIdentity: controller.identity,
        vendor: 'Acme',
        model: 'Wallbox 2',
        serialNumber: 'SN-1',
        firmwareVersion: '1.2.3',
      });
      // The connection is always on the stream before what the charge point said on it.
      const subjects = events.events
        .filter((recorded) => recorded.event.data.controllerUuid === controller.controllerUuid)
        .map((recorded) => recorded.subject);
      expect(subjects.indexOf(Subjects.connected)).toBeLessThan(subjects.indexOf(Subjects.booted));
    });

    it('answers Heartbeat with the current time', async () => {
      const { cp } = await connected(protocol, `CP-HEARTBEAT-${v}`);
      const answer = (await cp.call('Heartbeat', {})) as { currentTime: string };
      expect(Math.abs(Date.parse(answer.currentTime) - Date.now())).toBeLessThan(60000);
    });

    it('passes StatusNotification on as the plug status', async () => {
      const { cp, controller } = await connected(protocol, `CP-STATUS-${v}`);
      const timestamp = '2026-01-02T03:04:05.000Z';
      if (protocol === 'ocpp1.6') {
        await cp.call('StatusNotification', {
          connectorId: 2,
          errorCode: 'NoError',
          status: 'Charging',
          timestamp,
        });
      } else {
        await cp.call('StatusNotification', {
          timestamp,
          connectorStatus: 'Occupied',
          evseId: 1,
          connectorId: 2,
        });
      }
      const status = await events.waitFor(
        Subjects.connectorStatus,
        (data) => data.controllerUuid === controller.controllerUuid,
      );
      expect(status.data).toEqual({
        controllerUuid: controller.controllerUuid,
        ocppIdentity: controller.identity,
        connectorId: 2,
        evseId: protocol === 'ocpp1.6' ? null : 1,
        status: protocol === 'ocpp1.6' ? 'Charging' : 'Occupied',
        errorCode: protocol === 'ocpp1.6' ? 'NoError' : null,
        reportedAt: timestamp,
      });
    });

    it('accepts Authorize by default', async () => {
      const { cp } = await connected(protocol, `CP-AUTHORIZE-${v}`);
      if (protocol === 'ocpp1.6') {
        expect(await cp.call('Authorize', { idTag: 'TAG-1' })).toEqual({ idTagInfo: { status: 'Accepted' } });
      } else {
        expect(await cp.call('Authorize', { idToken: { idToken: 'TAG-1', type: 'ISO14443' } })).toEqual({
          idTokenInfo: { status: 'Accepted' },
        });
      }
    });

    it('answers DataTransfer with UnknownVendorId and an unknown action with NotImplemented', async () => {
      const { cp } = await connected(protocol, `CP-DATA-${v}`);
      expect(await cp.call('DataTransfer', { vendorId: 'com.example', messageId: 'x', data: 'y' })).toEqual({
        status: 'UnknownVendorId',
      });
      // A real action this gateway does not take from charge points, sent without client-side validation.
      const unknown = protocol === 'ocpp1.6' ? 'Reset' : 'GetVariables';
      cp.reconfigure({ strictMode: false } as never);
      await expect(cp.call(unknown, {})).rejects.toMatchObject({ rpcErrorCode: 'NotImplemented' });
      await expect(cp.call('NoSuchAction', {})).rejects.toMatchObject({ rpcErrorCode: 'NotImplemented' });
    });

    it('publishes firmware, diagnostics/log and security notifications', async () => {
      const { cp, controller } = await connected(protocol, `CP-NOTIFY-${v}`);
      const mine = (data: Record<string, unknown>) => data.controllerUuid === controller.controllerUuid;
      if (protocol === 'ocpp1.6') {
        await cp.call('FirmwareStatusNotification', { status: 'Downloading' });
        await cp.call('DiagnosticsStatusNotification', { status: 'Uploaded' });
        await cp.call('LogStatusNotification', { status: 'Uploading', requestId: 7 });
      } else {
        await cp.call('FirmwareStatusNotification', { status: 'Downloading', requestId: 5 });
        await cp.call('LogStatusNotification', { status: 'Uploaded', requestId: 7 });
      }
      await cp.call('SecurityEventNotification', {
        type: 'FirmwareUpdated',
        timestamp: '2026-01-02T03:04:05.000Z',
        techInfo: 'v2',
      });
      expect((await events.waitFor(Subjects.firmwareStatus, mine)).data).toMatchObject({
        status: 'Downloading',
        requestId: protocol === 'ocpp1.6' ? null : 5,
      });
      await events.waitFor(Subjects.diagnosticsStatus, (data) => mine(data) && data.requestId === 7);
      if (protocol === 'ocpp1.6')
        await events.waitFor(Subjects.diagnosticsStatus, (data) => mine(data) && data.status === 'Uploaded');
      expect((await events.waitFor(Subjects.securityEvent, mine)).data).toMatchObject({
        type: 'FirmwareUpdated',
        techInfo: 'v2',
        reportedAt: '2026-01-02T03:04:05.000Z',
      });
    });
  });

  it('1.6: StartTransaction → MeterValues → StopTransaction become transaction events with a gateway-assigned id', async () => {
    const { cp, controller } = await connected('ocpp1.6', 'CP-TX-16');
    const mine = (data: Record<string, unknown>) => data.controllerUuid === controller.controllerUuid;
    const start = {
      connectorId: 1,
      idTag: 'TAG-16',
      meterStart: 1000,
      timestamp: '2026-01-02T10:00:00.000Z',
    };
    const started = (await cp.call('StartTransaction', start)) as {
      transactionId: number;
      idTagInfo: { status: string };
    };
    expect(started.idTagInfo.status).toBe('Accepted');
    expect(
      Number.isInteger(started.transactionId) && started.transactionId > 0 && started.transactionId < 2 ** 31,
    ).toBe(true);
    // A charge point that missed the answer repeats the message: same transaction, not a second one.
    expect(((await cp.call('StartTransaction', start)) as { transactionId: number }).transactionId).toBe(
      started.transactionId,
    );
    const second = (await cp.call('StartTransaction', {
      ...start,
      connectorId: 2,
      timestamp: '2026-01-02T10:00:01.000Z',
    })) as {
      transactionId: number;
    };
    expect(second.transactionId).toBeGreaterThan(started.transactionId);

    await cp.call('MeterValues', {
      connectorId: 1,
      transactionId: started.transactionId,
      meterValue: [
        {
          timestamp: '2026-01-02T10:15:00.000Z',
          sampledValue: [
            { value: '230.1', measurand: 'Voltage', unit: 'V' },
            { value: '3.5', measurand: 'Energy.Active.Import.Register', unit: 'kWh' },
          ],
        },
      ],
    });
    expect(
      await cp.call('StopTransaction', {
        transactionId: started.transactionId,
        meterStop: 7500,
        timestamp: '2026-01-02T11:00:00.000Z',
        reason: 'EVDisconnected',
      }),
    ).toEqual({});

    const transactionId = String(started.transactionId);
    const ofTransaction = (data: Record<string, unknown>) =>
      mine(data) && data.transactionId === transactionId;
    expect((await events.waitFor(Subjects.transactionStarted, ofTransaction)).data).toEqual({
      controllerUuid: controller.controllerUuid,
      ocppIdentity: controller.identity,
      transactionId,
      connectorId: 1,
      evseId: null,
      idTag: 'TAG-16',
      meterStartWh: 1000,
      reservationId: null,
      startedAt: '2026-01-02T10:00:00.000Z',
    });
    expect((await events.waitFor(Subjects.transactionUpdated, ofTransaction)).data).toMatchObject({
      meterWh: 3500,
      sampledAt: '2026-01-02T10:15:00.000Z',
    });
    expect((await events.waitFor(Subjects.transactionEnded, ofTransaction)).data).toMatchObject({
      meterStopWh: 7500,
      stoppedAt: '2026-01-02T11:00:00.000Z',
      reason: 'EVDisconnected',
    });
    expect(events.on(Subjects.transactionStarted, ofTransaction)).toHaveLength(1);
  });

  it('2.0.1: TransactionEvent Started → Updated → Ended become transaction events', async () => {
    const { cp, controller } = await connected('ocpp2.0.1', 'CP-TX-201');
    const transactionInfo = { transactionId: 'tx-201-a' };
    const base = { triggerReason: 'Authorized', transactionInfo, evse: { id: 1, connectorId: 1 } };
    const energy = (value: number, context: string) => [
      {
        timestamp: '2026-01-02T10:00:00.000Z',
        sampledValue: [{ value, context, unitOfMeasure: { unit: 'kWh' } }],
      },
    ];
    expect(
      await cp.call('TransactionEvent', {
        ...base,
        eventType: 'Started',
        timestamp: '2026-01-02T10:00:00.000Z',
        seqNo: 0,
        idToken: { idToken: 'TAG-201', type: 'ISO14443' },
        meterValue: energy(1.25, 'Transaction.Begin'),
      }),
    ).toEqual({ idTokenInfo: { status: 'Accepted' } });
    await cp.call('TransactionEvent', {
      ...base,
      eventType: 'Updated',
      triggerReason: 'MeterValuePeriodic',
      timestamp: '2026-01-02T10:15:00.000Z',
      seqNo: 1,
      meterValue: [{ timestamp: '2026-01-02T10:15:00.000Z', sampledValue: [{ value: 4200 }] }],
    });
    await cp.call('TransactionEvent', {
      ...base,
      eventType: 'Ended',
      triggerReason: 'EVCommunicationLost',
      timestamp: '2026-01-02T11:00:00.000Z',
      seqNo: 2,
      transactionInfo: { ...transactionInfo, stoppedReason: 'EVDisconnected' },
      meterValue: energy(9.5, 'Transaction.End'),
    });

    const ofTransaction = (data: Record<string, unknown>) =>
      data.controllerUuid === controller.controllerUuid && data.transactionId === 'tx-201-a';
    expect((await events.waitFor(Subjects.transactionStarted, ofTransaction)).data).toMatchObject({
      connectorId: 1,
      evseId: 1,
      idTag: 'TAG-201',
      meterStartWh: 1250,
      startedAt: '2026-01-02T10:00:00.000Z',
    });
    expect((await events.waitFor(Subjects.transactionUpdated, ofTransaction)).data).toMatchObject({
      meterWh: 4200,
      evseId: 1,
      connectorId: 1,
    });
    expect((await events.waitFor(Subjects.transactionEnded, ofTransaction)).data).toMatchObject({
      meterStopWh: 9500,
      stoppedAt: '2026-01-02T11:00:00.000Z',
      reason: 'EVDisconnected',
      evseId: 1,
      connectorId: 1,
    });
  });

  it('2.0.1: an Updated without a reading that names the EVSE still becomes an event, for the session to find its plug', async () => {
    const { cp, controller } = await connected('ocpp2.0.1', 'CP-TX-201-EVSE');
    await cp.call('TransactionEvent', {
      eventType: 'Updated',
      triggerReason: 'CablePluggedIn',
      timestamp: '2026-01-02T10:05:00.000Z',
      seqNo: 1,
      transactionInfo: { transactionId: 'tx-201-evse' },
      evse: { id: 2, connectorId: 1 },
    });
    const ofTransaction = (data: Record<string, unknown>) =>
      data.controllerUuid === controller.controllerUuid && data.transactionId === 'tx-201-evse';
    expect((await events.waitFor(Subjects.transactionUpdated, ofTransaction)).data).toMatchObject({
      meterWh: null,
      sampledAt: '2026-01-02T10:05:00.000Z',
      evseId: 2,
      connectorId: 1,
    });
  });

  it('1.6: every sampled value of MeterValues and StopTransaction becomes a meter-values event, defaults filled in', async () => {
    const { cp, controller } = await connected('ocpp1.6', 'CP-METER-16');
    const ofController = (data: Record<string, unknown>) => data.controllerUuid === controller.controllerUuid;
    await cp.call('MeterValues', {
      connectorId: 1,
      transactionId: 42,
      meterValue: [
        {
          timestamp: '2026-01-02T10:00:00.000Z',
          sampledValue: [
            { value: '1234.5' },
            {
              value: '7.2',
              measurand: 'Power.Active.Import',
              unit: 'kW',
              phase: 'L1',
              context: 'Sample.Clock',
            },
            { value: 'c2lnbmVk', format: 'SignedData' },
          ],
        },
      ],
    });
    expect((await events.waitFor(TelemetryEventSubjects.meterValues, ofController)).data).toEqual({
      controllerUuid: controller.controllerUuid,
      ocppIdentity: 'CP-METER-16',
      transactionId: '42',
      evseId: null,
      connectorId: 1,
      samples: [
        {
          sampledAt: '2026-01-02T10:00:00.000Z',
          measurand: 'Energy.Active.Import.Register',
          phase: null,
          location: 'Outlet',
          unit: 'Wh',
          context: 'Sample.Periodic',
          value: 1234.5,
        },
        {
          sampledAt: '2026-01-02T10:00:00.000Z',
          measurand: 'Power.Active.Import',
          phase: 'L1',
          location: 'Outlet',
          unit: 'kW',
          context: 'Sample.Clock',
          value: 7.2,
        },
      ],
    });
    const mark = events.mark;
    await cp.call('StopTransaction', {
      transactionId: 42,
      meterStop: 2000,
      timestamp: '2026-01-02T11:00:00.000Z',
      transactionData: [
        {
          timestamp: '2026-01-02T11:00:00.000Z',
          sampledValue: [{ value: '2000', context: 'Transaction.End' }],
        },
      ],
    });
    const stop = await events.waitFor(TelemetryEventSubjects.meterValues, ofController, { from: mark });
    expect(stop.data).toMatchObject({
      transactionId: '42',
      samples: [{ value: 2000, context: 'Transaction.End' }],
    });
  });

  it('2.0.1: MeterValues outside a transaction become a meter-values event of the EVSE, the multiplier applied', async () => {
    const { cp, controller } = await connected('ocpp2.0.1', 'CP-METER-201');
    await cp.call('MeterValues', {
      evseId: 2,
      meterValue: [
        {
          timestamp: '2026-01-02T10:00:00.000Z',
          sampledValue: [
            { value: 5, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'W', multiplier: 3 } },
          ],
        },
      ],
    });
    const event = await events.waitFor(
      TelemetryEventSubjects.meterValues,
      (data) => data.controllerUuid === controller.controllerUuid,
    );
    expect(event.data).toMatchObject({
      transactionId: null,
      evseId: 2,
      connectorId: null,
      samples: [{ measurand: 'Power.Active.Import', unit: 'W', value: 5000, phase: null }],
    });
  });

  it('2.0.1: NotifyReport parts become report events', async () => {
    const { cp, controller } = await connected('ocpp2.0.1', 'CP-REPORT-201');
    const reportData = [
      {
        component: { name: 'ChargingStation' },
        variable: { name: 'Model' },
        variableAttribute: [{ value: 'Wallbox 2' }],
      },
    ];
    await cp.call('NotifyReport', {
      requestId: 42,
      generatedAt: '2026-01-02T10:00:00.000Z',
      seqNo: 0,
      tbc: false,
      reportData,
    });
    const report = await events.waitFor(
      Subjects.report,
      (data) => data.controllerUuid === controller.controllerUuid,
    );
    expect(report.data).toMatchObject({ requestId: 42, seqNo: 0, tbc: false, reportData });
  });
});

describe('ocpp-gateway: keeping the presence registry true', () => {
  let rig: GatewayTestRig;
  let client: NatsConnection;

  beforeAll(async () => {
    rig = await startGatewayTestRig({
      OCPP_PRESENCE_TTL_MS: '3000',
      OCPP_PRESENCE_AUDIT_MS: '2000',
      OCPP_GATEWAY_INSTANCE_ID: 'gw-alive',
    });
    client = await connect({ servers: rig.nats.url });
  });

  afterAll(async () => {
    await client?.close();
    await rig?.stop();
  });

  async function connectedChargePoint(identity: string) {
    const controller = rig.services.addController({
      tenantSlug: 'acme',
      identity,
      password: 'a-very-secret-password-1',
    });
    const cp = chargePoint({ port: rig.gateway.ocppPort, controller, protocols: ['ocpp2.0.1'] });
    await cp.connect();
    const connected = await rig.events.waitFor(
      Subjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
    );
    return { cp, controller, connectionId: connected.data.connectionId };
  }

  it('confirms itself once per round in one key, not once per socket', async () => {
    const { cp, controller } = await connectedChargePoint('CP-QUIET');
    const presence = await new Kvm(client).open(CHARGE_POINT_PRESENCE_BUCKET);
    const instances = await new Kvm(client).open(GATEWAY_INSTANCES_BUCKET);
    const entryRevision = (await presence.get(controller.controllerUuid))?.revision;
    const stateRevision = (await instances.get(gatewayInstanceKey('gw-alive')))?.revision;
    await eventually(
      async () => (await instances.get(gatewayInstanceKey('gw-alive')))?.revision ?? 0,
      (revision) => revision > (stateRevision ?? 0),
    );
    expect((await instances.get(gatewayInstanceKey('gw-alive')))?.json()).toMatchObject({
      refreshedAt: expect.any(String),
    });
    expect((await presence.get(controller.controllerUuid))?.revision).toBe(entryRevision);
    await cp.close();
  });

  it('sweeps the entries of an instance that died and announces their disconnects', async () => {
    const presence = await new Kvm(client).open(CHARGE_POINT_PRESENCE_BUCKET);
    const instances = await new Kvm(client).open(GATEWAY_INSTANCES_BUCKET);
    const incarnation = randomUUID();
    await instances.put(
      gatewayInstanceKey('gw-killed'),
      JSON.stringify({ incarnation, refreshedAt: new Date(Date.now() - 300_000).toISOString() }),
    );
    const orphan = {
      controllerUuid: randomUUID(),
      tenantUuid: randomUUID(),
      ocppIdentity: 'CP-ORPHAN',
      protocol: 'ocpp1.6',
      gatewayInstance: 'gw-killed',
      incarnation,
      connectionId: randomUUID(),
      connectedAt: new Date(Date.now() - 600_000).toISOString(),
    };
    await presence.put(orphan.controllerUuid, JSON.stringify(orphan));
    const disconnected = await rig.events.waitFor(
      Subjects.disconnected,
      (data) => data.controllerUuid === orphan.controllerUuid,
    );
    expect(disconnected.tenantUuid).toBe(orphan.tenantUuid);
    expect(disconnected.data).toMatchObject({
      connectionId: orphan.connectionId,
      gatewayInstance: 'gw-killed',
      reason: 'gateway_instance_lost',
    });
    expect((await presence.get(orphan.controllerUuid))?.operation).not.toBe('PUT');
    // Swept, the dead instance's state goes too.
    await eventually(
      async () => (await instances.get(gatewayInstanceKey('gw-killed')))?.operation,
      (operation) => operation !== 'PUT',
    );
  });

  it('announces its sockets again when another instance found it dead (it stood still)', async () => {
    const { cp, controller, connectionId } = await connectedChargePoint('CP-STOOD-STILL');
    const presence = await new Kvm(client).open(CHARGE_POINT_PRESENCE_BUCKET);
    const instances = await new Kvm(client).open(GATEWAY_INSTANCES_BUCKET);
    const from = rig.events.mark;
    // What a sweeping instance does: mark it lost, then remove its entries.
    const state = await instances.get(gatewayInstanceKey('gw-alive'));
    await instances.put(
      gatewayInstanceKey('gw-alive'),
      JSON.stringify({ ...state?.json<object>(), lost: true }),
    );
    await presence.delete(controller.controllerUuid);
    const again = await rig.events.waitFor(
      Subjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    expect(again.data.connectionId).toBe(connectionId);
    expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({
      connectionId,
      gatewayInstance: 'gw-alive',
    });
    expect((await instances.get(gatewayInstanceKey('gw-alive')))?.json()).not.toHaveProperty('lost');
    await cp.close();
  });

  it('announces a live connection again when its entry was removed behind its back', async () => {
    const { cp, controller, connectionId } = await connectedChargePoint('CP-LIVE');
    const presence = await new Kvm(client).open(CHARGE_POINT_PRESENCE_BUCKET);
    const from = rig.events.mark;
    await presence.delete(controller.controllerUuid);
    const again = await rig.events.waitFor(
      Subjects.connected,
      (data) => data.controllerUuid === controller.controllerUuid,
      { from },
    );
    expect(again.data.connectionId).toBe(connectionId);
    expect((await presence.get(controller.controllerUuid))?.json()).toMatchObject({
      connectionId,
      gatewayInstance: 'gw-alive',
    });
    // The audit of a live entry changes nothing on the event stream.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(
      rig.events.on(Subjects.connected, (data) => data.controllerUuid === controller.controllerUuid),
    ).toHaveLength(2);
    expect(
      rig.events.on(Subjects.disconnected, (data) => data.controllerUuid === controller.controllerUuid),
    ).toEqual([]);
    await cp.close();
  });
});

describe('ocpp-gateway: restarted under the same instance id', () => {
  let nats: Awaited<ReturnType<typeof startNatsTestServer>>;
  let services: FakeTenantsAndControllers;
  let gateway: RunningOcppGateway | undefined;
  let events: EventRecorder | undefined;
  let client: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    services = await FakeTenantsAndControllers.start(nats.url);
    client = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    await events?.stop();
    await gateway?.app.close();
    await client?.close();
    await services?.stop();
    await nats?.stop();
  });

  it("leaves its earlier process's entries for a grace, so charge points back within it never show offline", async () => {
    // What a crashed process left: its state and the entries of two connected charge points.
    const kvm = new Kvm(client);
    const presence = await kvm.create(CHARGE_POINT_PRESENCE_BUCKET, { history: 1 });
    const instances = await kvm.create(GATEWAY_INSTANCES_BUCKET, { history: 1 });
    const crashed = randomUUID();
    await instances.put(
      gatewayInstanceKey('gw-restarted'),
      JSON.stringify({ incarnation: crashed, refreshedAt: new Date().toISOString() }),
    );
    const leftBehind = (controller: FakeController) => ({
      controllerUuid: controller.controllerUuid,
      tenantUuid: controller.tenantUuid,
      ocppIdentity: controller.identity,
      protocol: 'ocpp2.0.1',
      securityProfile: 1,
      gatewayInstance: 'gw-restarted',
      incarnation: crashed,
      connectionId: randomUUID(),
      connectedAt: new Date().toISOString(),
    });
    const returning = services.addController({
      tenantSlug: 'acme',
      identity: 'CP-RETURNS',
      password: 'a-very-secret-password-1',
    });
    const gone = services.addController({
      tenantSlug: 'acme',
      identity: 'CP-GONE',
      password: 'a-very-secret-password-1',
    });
    const returningBefore = leftBehind(returning);
    const goneBefore = leftBehind(gone);
    await presence.put(returning.controllerUuid, JSON.stringify(returningBefore));
    await presence.put(gone.controllerUuid, JSON.stringify(goneBefore));

    gateway = await startGatewayForTest(nats.url, {
      OCPP_GATEWAY_INSTANCE_ID: 'gw-restarted',
      OCPP_PRESENCE_TTL_MS: '6000',
    });
    events = await EventRecorder.start(nats.url);
    // The first upkeep round (a third of the TTL) has run: it confirmed the new process, and swept nothing yet.
    const started = (await instances.get(gatewayInstanceKey('gw-restarted')))?.revision ?? 0;
    await eventually(
      async () => (await instances.get(gatewayInstanceKey('gw-restarted')))?.revision ?? 0,
      (revision) => revision > started,
    );
    const cp = chargePoint({ port: gateway.ocppPort, controller: returning, protocols: ['ocpp2.0.1'] });
    await cp.connect();
    await events.waitFor(Subjects.connected, (data) => data.controllerUuid === returning.controllerUuid);

    // Once the grace is over, the one that did not come back is announced offline, with its old connection.
    const goneOffline = await events.waitFor(
      Subjects.disconnected,
      (data) => data.controllerUuid === gone.controllerUuid,
      { timeoutMs: 20_000 },
    );
    expect(goneOffline.data).toMatchObject({
      connectionId: goneBefore.connectionId,
      gatewayInstance: 'gw-restarted',
      reason: 'gateway_instance_lost',
    });
    expect(
      events.on(Subjects.disconnected, (data) => data.controllerUuid === returning.controllerUuid),
    ).toEqual([]);
    expect((await presence.get(returning.controllerUuid))?.json()).toMatchObject({
      gatewayInstance: 'gw-restarted',
      connectionId: expect.not.stringMatching(returningBefore.connectionId),
    });
    await cp.close();
  });
});
