import 'reflect-metadata';
import { ChargePointEventSubjects as Subjects, TelemetryEventSubjects } from '@cpc/contracts';
import type { EventRecorder } from '@cpc/testing';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  type ChargePoint,
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayTestRig,
} from './testing/ocpp-gateway-test-bed.js';

/**
 * Odd but valid transaction reports from real ocpp-rpc charge points, and the events the gateway makes of them: what
 * command-service then stores as the session (its energy, its id tag) is only as right as these events.
 */
describe('ocpp-gateway: odd transaction reports', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  const open: ChargePoint[] = [];

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_GATEWAY_INSTANCE_ID: 'gw-transaction-reports' });
    ({ gateway, services, events } = rig);
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((cp) => cp.close({ force: true })));
  });

  afterAll(() => rig?.stop());

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
    return { cp, controller };
  }

  // Bug (fixed): a blank 1.6 energy register value ('' or spaces, which the schema allows) was read as 0 Wh, so the
  // session's latest reading dropped to 0 and its energy went negative (meterStart subtracted from 0). Root cause:
  // messages/energy-meter-reading.ts energyCandidates16 took Number(value), and Number('') is 0 (meterSamples16 left
  // blank values out, the energy reading did not).
  it('1.6: an energy register sent blank is no reading of 0 Wh; the value after it is', async () => {
    const { cp, controller } = await connected('ocpp1.6', 'CP-BLANK-16');
    const { transactionId } = (await cp.call('StartTransaction', {
      connectorId: 1,
      idTag: 'TAG-16',
      meterStart: 12_000,
      timestamp: '2026-03-01T08:00:00Z',
    })) as { transactionId: number };
    const mark = events.mark;
    const ofController = (data: Record<string, unknown>) => data.controllerUuid === controller.controllerUuid;
    // A meter that has no reading yet: the value is an empty (or blank) string, which the 1.6 schema allows.
    await cp.call('MeterValues', {
      connectorId: 1,
      transactionId,
      meterValue: [
        { timestamp: '2026-03-01T08:10:00Z', sampledValue: [{ value: '' }] },
        { timestamp: '2026-03-01T08:11:00Z', sampledValue: [{ value: ' ', unit: 'kWh' }] },
      ],
    });
    await cp.call('MeterValues', {
      connectorId: 1,
      transactionId,
      meterValue: [{ timestamp: '2026-03-01T08:20:00Z', sampledValue: [{ value: '15.5', unit: 'kWh' }] }],
    });
    await events.waitFor(
      Subjects.transactionUpdated,
      (data) => ofController(data) && data.meterWh === 15_500,
      {
        from: mark,
      },
    );
    // Without the fix the blank values became a reading of 0 Wh at 08:11, the session's energy -12,000 Wh until the
    // next reading (and for good when the blank one is the latest by sample time).
    expect(events.on(Subjects.transactionUpdated, ofController).map(({ data }) => data.meterWh)).toEqual([
      15_500,
    ]);
    // Nor is a blank value a sample.
    expect(
      events
        .on(TelemetryEventSubjects.meterValues, ofController)
        .flatMap(({ data }) => (data.samples as { value: number }[]).map((sample) => sample.value)),
    ).toEqual([15.5]);
  });

  // Bug (fixed): a 2.0.1 transaction that starts before authorization (TxStartPoint EVConnected: Started without
  // idToken, then Updated with triggerReason Authorized and the idToken) was stored without its id tag: the gateway
  // answered the token but published no event with it (messages/transaction-event.handler.ts, an Updated without a
  // reading, EVSE or reservation was not published, and TransactionUpdatedEvent had no idTag), so command-service
  // never learnt who charged.
  it('2.0.1: the id token of an Updated (authorized after the cable was plugged in) goes with its event', async () => {
    const { cp, controller } = await connected('ocpp2.0.1', 'CP-LATE-TOKEN-201');
    const transactionInfo = { transactionId: 'tx-late-token' };
    const evse = { id: 1, connectorId: 1 };
    // TxStartPoint EVConnected: the transaction starts with the cable, before anyone presented a token.
    await cp.call('TransactionEvent', {
      eventType: 'Started',
      triggerReason: 'CablePluggedIn',
      timestamp: '2026-03-01T08:00:00Z',
      seqNo: 0,
      transactionInfo,
      evse,
    });
    expect(
      await cp.call('TransactionEvent', {
        eventType: 'Updated',
        triggerReason: 'Authorized',
        timestamp: '2026-03-01T08:01:00Z',
        seqNo: 1,
        transactionInfo,
        idToken: { idToken: 'LATE-TOKEN', type: 'ISO14443' },
      }),
    ).toEqual({ idTokenInfo: { status: 'Accepted' } });
    const ofTransaction = (data: Record<string, unknown>) =>
      data.controllerUuid === controller.controllerUuid && data.transactionId === 'tx-late-token';
    expect((await events.waitFor(Subjects.transactionStarted, ofTransaction)).data).toMatchObject({
      idTag: null,
    });
    expect(
      (await events.waitFor(Subjects.transactionUpdated, ofTransaction, { timeoutMs: 3000 })).data,
    ).toMatchObject({
      idTag: 'LATE-TOKEN',
      meterWh: null,
    });
  });

  // Bug (fixed): a time without a zone ('2026-03-01T08:00:00', which ocpp-rpc's date-time format takes, though OCPP
  // asks for UTC and 2.0.1 for RFC 3339) was published as sent, and each consumer read it in its own zone: PostgreSQL
  // in the server's TimeZone (command-service's sessions and meter values), Node in the process's (Date.parse of the
  // meter summary), a webhook receiver as it liked. Root cause: the handlers passed the charge point's strings on
  // (messages/ocpp16-transactions.handler.ts, transaction-event.handler.ts, meter-samples.ts,
  // energy-meter-reading.ts, status-notification.handler.ts); now messages/ocpp-time.ts utcTime adds the `Z`.
  it('1.6 and 2.0.1: a time without a zone is published as the UTC time it stands for', async () => {
    const utc = (time: unknown) =>
      typeof time === 'string' && /(Z|[+-]\d\d:\d\d)$/i.test(time) ? new Date(time).toISOString() : time;
    const { cp: cp16, controller: controller16 } = await connected('ocpp1.6', 'CP-NO-ZONE-16');
    const { transactionId } = (await cp16.call('StartTransaction', {
      connectorId: 1,
      idTag: 'TAG-16',
      meterStart: 0,
      timestamp: '2026-03-01T08:00:00',
    })) as { transactionId: number };
    await cp16.call('MeterValues', {
      connectorId: 1,
      transactionId,
      meterValue: [{ timestamp: '2026-03-01T08:10:00.5', sampledValue: [{ value: '100' }] }],
    });
    await cp16.call('StatusNotification', {
      connectorId: 1,
      errorCode: 'NoError',
      status: 'Charging',
      timestamp: '2026-03-01T08:00:01',
    });
    await cp16.call('StopTransaction', { transactionId, meterStop: 200, timestamp: '2026-03-01T09:00:00' });
    const of16 = (data: Record<string, unknown>) => data.controllerUuid === controller16.controllerUuid;
    expect(utc((await events.waitFor(Subjects.transactionStarted, of16)).data.startedAt)).toBe(
      '2026-03-01T08:00:00.000Z',
    );
    expect(utc((await events.waitFor(Subjects.transactionUpdated, of16)).data.sampledAt)).toBe(
      '2026-03-01T08:10:00.500Z',
    );
    const samples = (await events.waitFor(TelemetryEventSubjects.meterValues, of16)).data.samples as {
      sampledAt: string;
    }[];
    expect(utc(samples[0].sampledAt)).toBe('2026-03-01T08:10:00.500Z');
    expect(utc((await events.waitFor(Subjects.connectorStatus, of16)).data.reportedAt)).toBe(
      '2026-03-01T08:00:01.000Z',
    );
    expect(utc((await events.waitFor(Subjects.transactionEnded, of16)).data.stoppedAt)).toBe(
      '2026-03-01T09:00:00.000Z',
    );

    const { cp: cp201, controller: controller201 } = await connected('ocpp2.0.1', 'CP-NO-ZONE-201');
    await cp201.call('TransactionEvent', {
      eventType: 'Started',
      triggerReason: 'Authorized',
      timestamp: '2026-03-01T08:00:00',
      seqNo: 0,
      transactionInfo: { transactionId: 'tx-no-zone' },
      evse: { id: 1, connectorId: 1 },
      idToken: { idToken: 'TAG-201', type: 'ISO14443' },
    });
    const of201 = (data: Record<string, unknown>) => data.controllerUuid === controller201.controllerUuid;
    expect(utc((await events.waitFor(Subjects.transactionStarted, of201)).data.startedAt)).toBe(
      '2026-03-01T08:00:00.000Z',
    );
  });
});
