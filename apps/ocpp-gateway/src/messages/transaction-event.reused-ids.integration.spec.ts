import 'reflect-metadata';
import { ChargePointEventSubjects as Subjects } from '@cpc/contracts';
import type { EventRecorder } from '@cpc/testing';
import type { RunningOcppGateway } from '../start-ocpp-gateway.js';
import {
  type ChargePoint,
  chargePoint,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayTestRig,
} from '../testing/ocpp-gateway-test-bed.js';

/**
 * A 2.0.1 charge point numbers its transactions itself, and one that reboots may use a transaction id again (a
 * counter from 1), with seqNo from 0 again (2.0.1 Edition 2 recommends it per transaction). Both transactions must
 * reach the event stream, while a message the charge point sends again (it missed our answer) is stored once.
 *
 * Bug (fixed): the event id of a TransactionEvent was derived from (controller, transaction id, seqNo) only, so
 * JetStream's duplicate window (EVENT_STREAM.duplicateWindowSeconds, 2 minutes) dropped every message of a transaction
 * that reused an id within it as a repeat: its start, updates and end never reached command-service. Now the
 * message's timestamp is part of the id (messages/transaction-event.handler.ts).
 */
describe('ocpp-gateway: a 2.0.1 transaction id used again', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  let cp: ChargePoint | undefined;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_GATEWAY_INSTANCE_ID: 'gw-reused-transaction-ids' });
    ({ gateway, services, events } = rig);
  });

  afterAll(async () => {
    await cp?.close({ force: true });
    await rig?.stop();
  });

  it('publishes both transactions, and a repeated message once', async () => {
    const controller = services.addController({
      tenantSlug: 'acme',
      identity: 'CP-REUSED-IDS-201',
      password: 'a-very-secret-password-1',
    });
    cp = chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp2.0.1'] });
    await cp.connect();
    const transactionInfo = { transactionId: '1' };
    const evse = { id: 1, connectorId: 1 };
    const message = (eventType: string, seqNo: number, timestamp: string) => ({
      eventType,
      triggerReason: eventType === 'Started' ? 'CablePluggedIn' : 'EVCommunicationLost',
      timestamp,
      seqNo,
      transactionInfo,
      evse,
    });
    await cp.call('TransactionEvent', message('Started', 0, '2026-05-01T10:00:00Z'));
    await cp.call('TransactionEvent', message('Ended', 1, '2026-05-01T11:00:00Z'));
    // After a reboot: transaction 1 again, seqNo from 0 again; its start sent twice (the answer was lost).
    const secondStart = message('Started', 0, '2026-05-01T12:00:00Z');
    await cp.call('TransactionEvent', secondStart);
    await cp.call('TransactionEvent', secondStart);
    await cp.call('TransactionEvent', message('Ended', 1, '2026-05-01T13:00:00Z'));

    const ofController = (data: Record<string, unknown>) => data.controllerUuid === controller.controllerUuid;
    await events.waitFor(
      Subjects.transactionEnded,
      (data) => ofController(data) && data.stoppedAt === '2026-05-01T13:00:00Z',
    );
    expect(events.on(Subjects.transactionStarted, ofController).map(({ data }) => data.startedAt)).toEqual([
      '2026-05-01T10:00:00Z',
      '2026-05-01T12:00:00Z',
    ]);
    expect(events.on(Subjects.transactionEnded, ofController).map(({ data }) => data.stoppedAt)).toEqual([
      '2026-05-01T11:00:00Z',
      '2026-05-01T13:00:00Z',
    ]);
  });
});
